/** `harness diff-spec`'s engine: both documents walked (`operations.ts`), findings merged and ranked. */
import { reportUncovered } from './every-change.ts';
import { diffItems } from './operations.ts';
import { LEVEL_RANK, type Level } from '../../core/level.ts';
import type { Finding, SpecDoc } from './types.ts';
import { type Ctx, Sink } from './walk-context.ts';

/**
 * Direction-aware breaking-change report between two parsed OpenAPI 3.x documents. Findings are
 * merged when one change (e.g. in a shared component) is reached from several operations, and
 * sorted most severe first. Every difference yields at least one finding (every-change.ts).
 */
export function diffSpecs(
  oldDoc: SpecDoc,
  newDoc: SpecDoc,
  options: { levels?: Readonly<Record<string, Level>> } = {},
): Finding[] {
  const sink = new Sink();
  const root: Ctx = {
    oldDoc,
    newDoc,
    sink,
    where: '',
    visited: new Set(),
    memo: new Map(),
    trials: new Map(),
    running: new Set(),
    ...(options.levels ? { levels: options.levels } : {}),
  };
  diffItems(root, 'paths');
  diffItems(root, 'webhooks');
  // Whatever no rule reported is still a change: INFO, never silence.
  reportUncovered(root, [...sink.byKey.values()]);
  return [...sink.byKey.values()].sort(
    (a, b) =>
      LEVEL_RANK[b.level] - LEVEL_RANK[a.level] ||
      a.rule.localeCompare(b.rule) ||
      (a.old ?? a.new ?? '').localeCompare(b.old ?? b.new ?? ''),
  );
}
