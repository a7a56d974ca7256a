#!/bin/sh
//usr/bin/env true; exec node -- "$0" "$@"
// ↑ Run by sh first, then by node: Node 20 reads `--env-file FILE` anywhere on its own command
// line, even after the script, and exits 9 with "node: FILE: not found" before any of our code
// runs (a file that exists it leaves alone). Behind `--` it does not look, so `harness run
// --env-file FILE` reaches the harness, which reads the file itself (and refuses a missing one in
// its own words, exit 2). To sh the second line runs `/usr/bin/env true`, then node; to node it
// is a comment. npm scripts call `exec node bin/harness.mjs -- <command>` for the same reason
// (and `exec`, so that npm's signals reach the harness, not a shell). Typed by hand as `node
// bin/harness.mjs run --env-file MISSING`, without `--`, Node's exit 9 cannot be avoided from
// here: the README says which forms work.
//
// `harness` on PATH (npx harness …): load the TypeScript CLI through tsx's loader. `diff-spec`
// runs in CI on every spec change, so it skips tsx (≈0.5 s of start-up): it runs a plain-JS build
// of its own sources, rebuilt with esbuild whenever one of them changed.
if (process.argv[2] === '--') process.argv.splice(2, 1);
const [name, ...rest] = process.argv.slice(2);
if (name === 'diff-spec' && !process.env.HARNESS_NO_PRECOMPILE) {
  const { loadCompiled } = await import('./compiled-command.mjs');
  const entry = await loadCompiled('diff-spec', 'compat/commands/diff-spec-entry.ts');
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
  await import('../run/main.ts');
}
