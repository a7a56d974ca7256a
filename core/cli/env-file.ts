/**
 * `--env-file FILE`: HARNESS_* variables from a file, the environment winning on conflicts. Read
 * by the harness itself — Node 20 would read the flag too, which is why bin/harness.mjs hides the
 * command line behind `--` — so a missing or malformed file is one line in our words, exit 2.
 */
import { readEnvFile } from '../config.ts';
import type { OptionSpec } from './command-spec.ts';

export const ENV_FILE_OPTION = {
  type: 'string',
  arg: 'FILE',
  help: 'read HARNESS_* variables from FILE (KEY=VALUE lines; the environment wins on conflicts)',
} as const satisfies OptionSpec;

export function applyEnvFile(file: string | undefined): void {
  if (!file) return;
  for (const [k, v] of Object.entries(readEnvFile(file))) process.env[k] ??= v;
}
