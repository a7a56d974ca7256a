/** The flags shared by the findings reports (diff-spec, compare): --format, --out and --fail-on. */
import type { OptionSpec } from '../../core/cli/command-spec.ts';

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
