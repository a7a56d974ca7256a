/** `harness serve`: the reference deployment on loopback (same as `npm run serve`). */
export async function run(argv: string[]): Promise<number> {
  const { serve } = await import('../../../server/serve.ts');
  return serve(argv);
}
