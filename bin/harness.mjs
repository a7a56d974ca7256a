#!/usr/bin/env node
// `harness` on PATH (npx harness …): load the TypeScript CLI through tsx's loader. `diff-spec`
// runs in CI on every spec change, so it skips tsx (≈0.5 s of start-up): it runs a plain-JS build
// of its own sources, rebuilt with esbuild whenever one of them changed.
const [name, ...rest] = process.argv.slice(2);
if (name === 'diff-spec' && !process.env.HARNESS_NO_PRECOMPILE) {
  const { loadCompiled } = await import('./compiled-command.mjs');
  const entry = await loadCompiled('diff-spec', 'src/cli/diff-spec-entry.ts');
  if (entry) {
    await entry.main(rest);
  } else {
    await viaTsx();
  }
} else {
  await viaTsx();
}

async function viaTsx() {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
