/** `harness serve`: the reference deployment on loopback (same as `npm run serve`). */
import { serve, spec } from '../../../server/serve.ts';

export { spec };

export function run(argv: string[]): Promise<number> {
  return serve(argv);
}
