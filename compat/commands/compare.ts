/**
 * `harness compare BASELINE CURRENT`: what the current deployment does differently from the
 * baseline's — statuses, headers, content types, body shapes, gap values, plan limits.
 */
import { writeFileSync } from 'node:fs';
import { compareSnapshots, failing, loadSnapshot, render } from '../compare/index.ts';
import {
  type CommandSpec,
  parseCommand,
  UsageError,
  usageText,
} from '../../core/cli/command-spec.ts';
import { FINDINGS_OPTIONS, reportFlags } from './report-flags.ts';

export const spec = {
  name: 'compare',
  args: 'BASELINE CURRENT',
  summary:
    'Diff of two behaviour snapshots: statuses, headers, content types, body shapes, gap values and plan limits the current deployment shows differently.',
  about: [
    'BASELINE, CURRENT: snapshot.json files written by harness run (or the report directories',
    'holding one), e.g. reports/baselines/reference.snapshot.json and reports/latest.',
  ],
  options: {
    ...FINDINGS_OPTIONS,
    partial: {
      type: 'boolean',
      help: 'CURRENT ran only part of the suite (--grep): a status it did not see is "not observed", not removed',
    },
  },
  env: ['HARNESS_DEBUG'],
  examples: [
    'npx harness compare reports/baselines/reference.snapshot.json reports/latest',
    'npx harness compare old/snapshot.json new/snapshot.json --format junit --fail-on WARN',
  ],
  exit1: 'a finding at or above --fail-on (default ERR)',
} as const satisfies CommandSpec;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 2)
    throw new UsageError(
      'expected two snapshots: harness compare BASELINE CURRENT',
      usageText(spec),
    );
  const { format, failOn } = reportFlags(values);
  const [baseSrc, curSrc] = positionals as [string, string];
  const findings = compareSnapshots(loadSnapshot(baseSrc), loadSnapshot(curSrc), {
    partial: values.partial ?? false,
  });
  const text = render(format, findings, { baseline: baseSrc, current: curSrc, failOn });
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
  return failing(findings, failOn).length > 0 ? 1 : 0;
}
