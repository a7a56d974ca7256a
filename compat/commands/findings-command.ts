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
import { failing, type Leveled } from '../../core/level.ts';

export type ReportFormat = 'md' | 'json' | 'junit';
export type FailOn = 'ERR' | 'WARN' | 'INFO';

const FORMATS: readonly ReportFormat[] = ['md', 'json', 'junit'];
const LEVELS: readonly FailOn[] = ['ERR', 'WARN', 'INFO'];

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

export function reportFlags(values: { format?: string; 'fail-on'?: string }): {
  format: ReportFormat;
  failOn: FailOn;
} {
  const format = (values.format ?? 'md') as ReportFormat;
  if (!FORMATS.includes(format))
    throw new Error(`--format must be one of ${FORMATS.join(', ')} (got '${values.format}')`);
  const failOn = String(values['fail-on'] ?? 'ERR').toUpperCase() as FailOn;
  if (!LEVELS.includes(failOn))
    throw new Error(`--fail-on must be one of ${LEVELS.join(', ')} (got '${values['fail-on']}')`);
  return { format, failOn };
}

/**
 * Parses `argv` for `spec`, and with its two inputs `find`s the findings and `render`s them.
 * `twoInputs` is the usage error's text when there are not exactly two.
 */
export async function runFindingsCommand<O extends Options, F extends Leveled>(
  spec: CommandSpec<O>,
  argv: string[],
  twoInputs: string,
  find: (a: string, b: string, values: Values<O>) => readonly F[],
  render: (
    format: ReportFormat,
    findings: readonly F[],
    a: string,
    b: string,
    failOn: FailOn,
  ) => string,
): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) throw new UsageError(twoInputs, usageText(spec));
  const { format, failOn } = reportFlags(values as { format?: string; 'fail-on'?: string });
  const [a, b] = positionals as [string, string];
  const findings = find(a, b, values);
  const text = render(format, findings, a, b, failOn);
  const out = (values as { out?: string }).out;
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
  return failing(findings, failOn).length > 0 ? 1 : 0;
}
