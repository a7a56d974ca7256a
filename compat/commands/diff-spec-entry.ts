/**
 * Entry of the precompiled `harness diff-spec` (see bin/harness.mjs): the command alone, so the
 * diff path loads neither tsx, Playwright nor the server.
 */
import { run } from './diff-spec.ts';
import { leanYoungGeneration } from './lean-heap.ts';
import { runCommand } from '../../core/cli/run-command.ts';

export function main(argv: string[]): Promise<void> {
  leanYoungGeneration();
  return runCommand('diff-spec', async () => ({ run }), argv);
}
