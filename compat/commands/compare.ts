/**
 * `harness compare BASELINE CURRENT`: what the current deployment does differently from the
 * baseline's — statuses, headers, content types, body shapes, gap values, plan limits.
 */
import { compareBehaviour } from '../compare/compare-snapshots.ts';
import { loadSnapshot } from '../compare/load-snapshot.ts';
import { renderCompare as render } from '../findings/views.ts';
import type { CommandSpec } from '../../core/cli/command-spec.ts';
import { FINDINGS_OPTIONS, runFindingsCommand } from './findings-command.ts';

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
      help: 'CURRENT ran only part of the suite; needed only against a version 2 snapshot, which does not record what each test saw (a version 3 one does: only what both ran is compared)',
    },
  },
  env: ['HARNESS_DEBUG'],
  examples: [
    'npx harness compare reports/baselines/reference.snapshot.json reports/latest',
    'npx harness compare old/snapshot.json new/snapshot.json --format junit --fail-on WARN',
  ],
  exit1: 'a finding at or above --fail-on (default ERR)',
} as const satisfies CommandSpec;

export function run(argv: string[]): Promise<number> {
  return runFindingsCommand(
    spec,
    argv,
    'expected two snapshots: harness compare BASELINE CURRENT',
    (baseSrc, curSrc, values) =>
      compareBehaviour(
        loadSnapshot(baseSrc),
        loadSnapshot(curSrc),
        values.partial ? { partial: true } : {},
      ),
    render,
  );
}
