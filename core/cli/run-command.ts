/**
 * Runs one command module and turns its outcome into the exit status: misuse of the harness
 * (bad flags, unreadable files, an unresolvable `$ref`) lands here as one clear line and exit 2,
 * no stack (set HARNESS_DEBUG for one); a usage error adds the command's usage. Shared by
 * `main.ts` and the precompiled fast path of `bin/harness.mjs`, so both fail the same way.
 */
import { envVar } from '../variables.ts';
import { redact } from '../redact.ts';
import { UsageError } from './command-spec.ts';

export async function runCommand(
  name: string,
  load: () => Promise<{ run: (argv: string[]) => Promise<number> }>,
  argv: string[],
): Promise<void> {
  try {
    process.exitCode = await (await load()).run(argv);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`harness ${name}: ${redact(msg)}\n`);
    // A misuse of the command line shows how it is used.
    if (err instanceof UsageError) process.stderr.write(`\n${err.usage}`);
    if (envVar('HARNESS_DEBUG') && err instanceof Error && err.stack)
      process.stderr.write(`${redact(err.stack)}\n`);
    process.exitCode = 2;
  }
}
