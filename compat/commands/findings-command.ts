/**
 * The twin commands `harness diff-spec OLD NEW` and `harness compare BASELINE CURRENT`: one flag
 * parser for what they share (--format, --out, --fail-on) and one way to run — two inputs, their
 * leveled findings, a report in the chosen format to --out or stdout, exit 1 at or above --fail-on.
 */
import { writeFileSync } from 'node:fs';
import {
  type CommandSpec,
  type Options,
  type OptionSpec,
  parseCommand,
  UsageError,
  usageText,
  type Values,
} from '../../core/cli/command-spec.ts';
import { failing, type Level, LEVELS, type Leveled } from '../../core/level.ts';
import type { Format } from '../findings/report.ts';

const FORMATS: readonly Format[] = ['md', 'json', 'junit'];

export const FINDINGS_OPTIONS = {
  format: { type: 'string', arg: 'md|json|junit', default: 'md', help: 'report format' },
  out: { type: 'string', arg: 'FILE', help: 'write the report to FILE instead of stdout' },
  'fail-on': {
    type: 'string',
    arg: 'ERR|WARN|INFO',
    default: 'ERR',
    help: 'the lowest level of finding that makes the exit status 1',
  },
} as const satisfies Record<string, OptionSpec>;

/**
 * Parses `argv` for `spec`, and with its two inputs `find`s the findings and `render`s them.
 * `twoInputs` is the usage error's text when there are not exactly two.
 */
export async function runFindingsCommand<O extends Options, F extends Leveled, N = never>(
  spec: CommandSpec<O>,
  argv: string[],
  twoInputs: string,
  /** The findings, or the findings and the notes of what was left out (harness compare). */
  find: (
    a: string,
    b: string,
    values: Values<O>,
  ) => readonly F[] | { findings: readonly F[]; notes: readonly N[] },
  render: (
    format: Format,
    findings: readonly F[],
    a: string,
    b: string,
    failOn: Level,
    notes: readonly N[],
  ) => string,
): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) throw new UsageError(twoInputs, usageText(spec));
  const flags = values as { format?: string; 'fail-on'?: string; out?: string };
  const format = (flags.format ?? 'md') as Format;
  if (!FORMATS.includes(format))
    throw new Error(`--format must be one of ${FORMATS.join(', ')} (got '${flags.format}')`);
  const failOn = String(flags['fail-on'] ?? 'ERR').toUpperCase() as Level;
  if (!LEVELS.includes(failOn))
    throw new Error(`--fail-on must be one of ${LEVELS.join(', ')} (got '${flags['fail-on']}')`);
  const [a, b] = positionals as [string, string];
  const found = find(a, b, values);
  const { findings, notes } = Array.isArray(found)
    ? { findings: found as readonly F[], notes: [] as readonly N[] }
    : (found as { findings: readonly F[]; notes: readonly N[] });
  const text = render(format, findings, a, b, failOn, notes);
  if (flags.out) writeFileSync(flags.out, text);
  else process.stdout.write(text);
  return failing(findings, failOn).length > 0 ? 1 : 0;
}
