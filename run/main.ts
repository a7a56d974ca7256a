/**
 * `harness <command> [...args]` — the one CLI. The commands are listed in `commands.ts`; each
 * lives in its own file under `commands/`, exports `spec` and `run(argv): Promise<number>` (the
 * exit status) and is loaded only when called.
 */
import { COMMANDS, topUsage } from './commands.ts';

const [first, ...rest] = process.argv.slice(2);
// `harness help run` is `harness run --help`.
const [name, args] = first === 'help' && rest[0] ? [rest[0], ['--help']] : [first, rest];
if (!name || name === '--help' || name === '-h' || name === 'help') {
  (name ? process.stdout : process.stderr).write(topUsage());
  process.exit(name ? 0 : 2);
}
const entry = COMMANDS[name];
if (!entry) {
  process.stderr.write(`harness: unknown command '${name}'\n\n${topUsage()}`);
  process.exit(2);
}
const { runCommand } = await import('../core/cli/run-command.ts');
await runCommand(name, entry.load, args);
