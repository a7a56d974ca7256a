/** The flags shared by the findings reports (diff-spec, compare): --format and --fail-on. */
export type ReportFormat = 'md' | 'json' | 'junit';
export type FailOn = 'ERR' | 'WARN' | 'INFO';

const FORMATS: readonly ReportFormat[] = ['md', 'json', 'junit'];
const LEVELS: readonly FailOn[] = ['ERR', 'WARN', 'INFO'];

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
