/**
 * The run's compatibility area: the comparison with the baseline snapshot in the run's one
 * failure shape. Changes are reported and never fatal, unless the user gates on them
 * (HARNESS_COMPAT_FAIL_ON): then each change at or above that level fails the gate like a broken
 * documented rule, still labelled `observed` (a change since the baseline, not a rule of the docs).
 */
import { type AreaSummary, emptyArea, notRunArea } from '../../core/area.ts';
import type { CompatibilityReport } from '../../core/compatibility.ts';
import { failing, type Level, LEVELS } from '../../core/level.ts';
import { compareFailure } from '../findings/as-failure.ts';

/** Undefined when there was no comparison and no gate asked for one. */
export function compatibilityArea(
  report: CompatibilityReport | undefined,
  failOn: Level | undefined,
): AreaSummary | undefined {
  const gate = failOn ? `gating at ${failOn} (HARNESS_COMPAT_FAIL_ON)` : 'reported, not gating';
  if (!report) {
    if (!failOn) return undefined;
    const reason = `no baseline comparison in this run (it needs the whole contract suite and a baseline; HARNESS_BASELINE=off turns it off), so the ${failOn} gate was not applied`;
    return notRunArea(reason, 'baseline comparison');
  }
  if (report.error) {
    const a = emptyArea(
      failOn ? 'fail' : 'not-run',
      `baseline ${report.baseline}: ${report.error}`,
    );
    if (!failOn) return { ...a, notRun: [{ name: 'baseline comparison', reason: report.error }] };
    a.documentedFailures.push({
      check: 'harness.baseline-readable',
      provenance: 'documented',
      rule: 'The baseline a run is gated on (HARNESS_BASELINE) is a readable behaviour snapshot.',
      received: report.error,
      expected: `a behaviour snapshot at ${report.baseline}`,
    });
    return a;
  }
  const { ERR, WARN, INFO } = report.counts;
  const gated = failOn ? failing(report.findings, failOn).map(compareFailure) : [];
  const left = report.notes?.length ?? 0;
  const headline = `against ${report.baseline}: ERR ${ERR} · WARN ${WARN} · INFO ${INFO}${report.partial ? ' (partial run)' : ''}${left ? ` · ${left} left out (not exercised or not comparable by both runs; notes in summary.json)` : ''}; ${gate}`;
  const verdict = gated.length ? 'fail' : ERR + WARN > 0 ? 'warn' : 'pass';
  const level = LEVELS.find((l) => report.counts[l] > 0);
  return {
    ...emptyArea(verdict, headline),
    documentedFailures: gated,
    ...(level ? { level } : {}),
  };
}
