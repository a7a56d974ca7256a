/**
 * The run's compatibility area: behaviour changes against the baseline in the run's one failure
 * shape; reported and never fatal unless HARNESS_COMPAT_FAIL_ON gates on them. A gate that could
 * not be applied says so; a baseline that cannot be read fails a gated run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareFailure, diffFailure } from '../../compat/findings/as-failure.ts';
import type { CompatibilityReport } from '../../core/compatibility.ts';
import { compatibilityArea } from '../../compat/compare/compatibility-area.ts';
import { Findings } from '../../compat/compare/rules.ts';
import { ConfigError, loadConfig } from '../../core/config.ts';
import { countByLevel } from '../../core/level.ts';
import { verdictTable } from '../../report/console.ts';
import { exitCodeOf } from '../../report/summary.ts';

function report(): CompatibilityReport {
  const f = new Findings();
  f.add('status-removed', 'POST /v1/tickets no longer answers 201', {
    operation: 'POST /v1/tickets',
    status: '201',
  });
  f.add(
    'gap-value-changed',
    'U2 default priority was normal, is low',
    { gap: 'U2' },
    {
      baseline: 'normal',
      current: 'low',
    },
  );
  f.add('status-added', 'GET /v1/tickets answers 418', { operation: 'GET /v1/tickets' });
  return {
    baseline: 'base.json',
    baselineTakenAt: '2026-11-01T00:00:00Z',
    counts: countByLevel(f.list),
    findings: f.list,
    markdown: '',
  };
}

test('a compare finding in the failure shape: observed, Received now / Baseline before', () => {
  const gap = compareFailure(report().findings[1]!);
  assert.equal(gap.check, 'compare.gap-value-changed');
  assert.equal(gap.provenance, 'observed');
  assert.equal(gap.level, 'WARN');
  assert.equal(gap.rule, 'an observed gap value (U-table) changed');
  assert.equal(gap.received, 'U2 default priority was normal, is low (at U2; now low)');
  assert.equal(gap.expected, 'normal');
});

test('a spec finding in the failure shape: documented, or assumed where the element is', () => {
  const f = diffFailure({
    rule: 'response-property-removed',
    level: 'ERR',
    message: 'property `sla` removed',
    old: '#/components/schemas/Ticket/properties/sla',
    where: ['GET /v1/tickets/{}'],
  });
  assert.equal(f.check, 'diff-spec.response-property-removed');
  assert.equal(f.provenance, 'documented');
  assert.ok(f.rule.length > 0 && f.rule !== f.check);
  assert.equal(f.received, 'property `sla` removed (new: removed; reaches GET /v1/tickets/{})');
  assert.equal(f.expected, 'old: #/components/schemas/Ticket/properties/sla');
  const assumed = diffFailure({
    rule: 'request-property-removed',
    level: 'INFO',
    message: 'm',
    new: '#/x',
    where: [],
    assumed: { pointer: '#/x', version: 'old', gap: 'U3' },
  });
  assert.equal(assumed.provenance, 'assumed');
  assert.match(assumed.expected, /x-provenance: assumed at #\/x, U3/);
});

test('not gating: changes make the area WARN, never a failure, and the run passes', () => {
  const a = compatibilityArea(report(), undefined)!;
  assert.equal(a.verdict, 'warn');
  // The verdict row shows the highest level found, not a milder WARN beside a detail saying ERR 1.
  assert.equal(a.level, 'ERR');
  assert.match(verdictTable({ compatibility: a })[1]!, /^compatibility\s+ERR\s+0\s+0\s+0$/);
  const infoOnly = { ...report(), findings: [], counts: { ERR: 0, WARN: 0, INFO: 2 } };
  assert.match(
    verdictTable({ compatibility: compatibilityArea(infoOnly, undefined)! })[1]!,
    /^compatibility\s+INFO\b/,
  );
  const none = { ...report(), findings: [], counts: { ERR: 0, WARN: 0, INFO: 0 } };
  assert.match(
    verdictTable({ compatibility: compatibilityArea(none, undefined)! })[1]!,
    /^compatibility\s+PASS\b/,
  );
  assert.deepEqual(a.documentedFailures, []);
  assert.match(a.headline, /ERR 1 · WARN 1 · INFO 1; reported, not gating/);
  assert.equal(exitCodeOf({ compatibility: a }, false), 0);
});

test('gating at ERR: the ERR change fails the run, observed; at INFO every change does', () => {
  const err = compatibilityArea(report(), 'ERR')!;
  assert.equal(err.verdict, 'fail');
  assert.match(verdictTable({ compatibility: err })[1]!, /^compatibility\s+FAIL\s+1\b/);
  assert.deepEqual(
    err.documentedFailures.map((f) => [f.check, f.provenance]),
    [['compare.status-removed', 'observed']],
  );
  assert.equal(exitCodeOf({ compatibility: err }, false), 1);
  assert.equal(compatibilityArea(report(), 'INFO')!.documentedFailures.length, 3);
  const none = { ...report(), findings: [], counts: { ERR: 0, WARN: 0, INFO: 0 } };
  assert.equal(compatibilityArea(none, 'INFO')!.verdict, 'pass');
});

test('a gate without a comparison is not run, said so; without a gate there is no area', () => {
  assert.equal(compatibilityArea(undefined, undefined), undefined);
  const a = compatibilityArea(undefined, 'ERR')!;
  assert.equal(a.verdict, 'not-run');
  assert.match(a.notRun[0]!.reason, /ERR gate was not applied/);
});

test('an unreadable baseline fails a gated run, and is only not-run otherwise', () => {
  const broken = { ...report(), findings: [], error: 'no snapshot at /x' };
  const gated = compatibilityArea(broken, 'ERR')!;
  assert.equal(gated.verdict, 'fail');
  assert.equal(gated.documentedFailures[0]!.check, 'harness.baseline-readable');
  assert.equal(compatibilityArea(broken, undefined)!.verdict, 'not-run');
});

test('HARNESS_COMPAT_FAIL_ON: a level (any case) or off; anything else is a clear error', () => {
  assert.equal(loadConfig({ HARNESS_COMPAT_FAIL_ON: 'warn' }).compatFailOn, 'WARN');
  assert.equal(loadConfig({ HARNESS_COMPAT_FAIL_ON: 'off' }).compatFailOn, undefined);
  assert.equal(loadConfig({}).compatFailOn, undefined);
  assert.throws(
    () => loadConfig({ HARNESS_COMPAT_FAIL_ON: 'BREAKING' }),
    (e: Error) => e instanceof ConfigError && /ERR, WARN, INFO or off/.test(e.message),
  );
});
