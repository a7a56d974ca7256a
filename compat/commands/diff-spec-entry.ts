/**
 * Entry of the precompiled `harness diff-spec` (see bin/harness.mjs): the command alone, so the
 * diff path loads neither tsx, Playwright nor the server.
 */
import { setFlagsFromString } from 'node:v8';
import { run } from './diff-spec.ts';
import { runCommand } from '../../core/cli/run-command.ts';

export function main(argv: string[]): Promise<void> {
  // `harness diff-spec` holds two parsed specs (≈ 7× their YAML size each) and little else, yet
  // V8 grows its young generation to 16 MB semi-spaces while js-yaml builds them: a third of the
  // command's peak RSS is nursery that is mostly garbage. Keeping the nursery at its initial size
  // (growth factor 1) took the 2 MB pair of bench/diff-spec-vs-oasdiff.ts from ≈ 130 to ≈ 103 MB
  // peak RSS at the same CPU time. V8 reads the factor each time new space would grow, so setting
  // it at run time takes effect; a short-lived, single-purpose process is the only place we do.
  setFlagsFromString('--semi-space-growth-factor=1');
  return runCommand('diff-spec', async () => ({ run }), argv);
}
