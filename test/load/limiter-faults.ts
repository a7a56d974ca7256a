import type { LoadResult } from '../../load/lib/index.ts';

/**
 * Limiter fault → how it must show: a failing verdict among these. One table for both engines
 * (reference-deployment.test.ts for the Node driver, k6-faults.test.ts for k6), so "named by the
 * same verdict" is checked, not assumed. Another limiter, Reset unit, Retry-After or scope is no
 * fault but a reading (server/readings/limits.ts), held to pass the gate instead
 * (test/load/readings-gate.test.ts).
 */
export const LIMITER_FAULTS: Record<string, { verdicts: string[] }> = {
  'burst-201': { verdicts: ['burst', 'fresh-key'] },
  'burst-150': { verdicts: ['burst'] },
  'rate-130': { verdicts: ['rate'] },
  'rate-100': { verdicts: ['rate'] },
  'starves-past-burst': { verdicts: ['rate-held'] },
  'remaining-off-by-one': { verdicts: ['remaining-zero-on-429', 'remaining-matches-burst'] },
  // One bucket for every workspace is also one for both keys of key A's: scope (U25) fails too,
  // by its own rule; the documented verdict that names the fault is the other workspace's.
  'global-bucket': { verdicts: ['other-workspace'] },
  'ratelimit-limit-is-burst': { verdicts: ['limit-header'] },
};

/** Why `r` does not show `fault` the way the table says, or undefined when it does. */
export function missedFault(fault: string, r: LoadResult): string | undefined {
  const expect = LIMITER_FAULTS[fault];
  if (!expect) return `${fault} is not in the table`;
  // A documented verdict that leaned on an assumption (the limiter not shown as a token bucket)
  // fails no gate: the fault would go unnoticed.
  const failed: string[] = r.verdicts
    .filter((v) => v.status === 'fail' && !v.leansOn)
    .map((v) => v.id);
  if (!expect.verdicts.some((v) => failed.includes(v))) {
    const leaned = r.verdicts
      .filter((v) => v.status === 'fail' && v.leansOn)
      .map((v) => `${v.id} on ${v.leansOn!.gap}`);
    return `${fault} not caught (failed: ${failed.join(', ') || 'none'}${leaned.length ? `; leaning, the limiter shown as ${r.limiter.algorithm}: ${leaned.join(', ')}` : ''})`;
  }
  if (fault === 'global-bucket' && r.scope.scope !== 'shared')
    return `${fault}: scope ${r.scope.scope}`;
  // Another workspace's key is refused only when the deployment shares one bucket across
  // workspaces: any other fault (a per-workspace bucket among them) must leave it alone.
  if (fault !== 'global-bucket' && failed.includes('other-workspace'))
    return `${fault}: other-workspace failed too (${r.verdicts.find((v) => v.id === 'other-workspace')?.observed})`;
  return undefined;
}

/**
 * Why `r` warrants the one re-measurement even on a machine that kept up: the verdict that must
 * catch `fault` came out inconclusive — its interval too wide to call (a 6 s under-rate phase at
 * 10× holds ~15 accepts, and one stalled scheduler tick widens it past ± 3 %). Inconclusive is not
 * a pass, but it is not a catch either; measured once more (the clock slower, so more accepts
 * fall in the phase), a second inconclusive outcome on a machine that kept up fails the test.
 */
export function tooCoarse(fault: string, r: LoadResult): string | undefined {
  const expect = LIMITER_FAULTS[fault];
  if (!expect || missedFault(fault, r) === undefined) return undefined;
  const coarse = r.verdicts.filter(
    (v) => expect.verdicts.includes(v.id) && v.status === 'inconclusive',
  );
  return coarse.length
    ? `${coarse.map((v) => v.id).join(', ')} inconclusive (${coarse[0]!.why ?? 'too coarse'})`
    : undefined;
}
