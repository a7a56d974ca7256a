/**
 * `harness compare` shows the change a faulty deployment makes: the committed baseline of the
 * reference deployment (reports/baselines/reference.snapshot.json, a full `harness run` with
 * load) against real contract runs (the list-tickets tests, load and fuzz skipped) of the
 * reference deployment with and without faults. The clean run must add no ERR or WARN finding
 * (run-to-run noise is not behaviour), the faulty one exactly the faults' changes.
 *
 * When the contract suite changes what it exercises, regenerate the baseline:
 *   npm start -- --out /tmp/baseline && cp /tmp/baseline/snapshot.json \
 *     reports/baselines/reference.snapshot.json
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompatibilityReport } from '../../core/compatibility.ts';
import { after, before, describe, test } from 'node:test';
import type { CompareFinding } from '../../compat/compare/types.ts';
import { compareSnapshots } from '../../compat/compare/compare-snapshots.ts';
import { loadSnapshot } from '../../compat/compare/load-snapshot.ts';
import { REFERENCE_BASELINE } from '../../compat/compare/baseline.ts';
import { runAll } from '../../run/run-all.ts';

const GREP = 'list tickets';
const FAULTS = ['list-without-tickets', 'ratelimit-headers-missing-on-4xx'];
/** What a run of part of the suite leaves unseen, if its tests ran: INFO at most. */
const COVERAGE = new Set(['operation-not-observed', 'gap-not-observed']);

const dir = mkdtempSync(join(tmpdir(), 'harness-compare-fault-'));
const key = (f: CompareFinding) => {
  const p = f.pointer;
  const at = p.header ?? p.field ?? p.gap ?? p.plan;
  return [f.level, f.rule, p.operation, p.status, at, p.probe].filter(Boolean).join(' ');
};
const show = (fs: CompareFinding[]) => fs.map(key).join('\n');

/** A run gated on its changes (HARNESS_COMPAT_FAIL_ON=failOn): the report, the area, the exit. */
async function contractRun(name: string, faults: string[], failOn: string) {
  const { summary, exitCode } = await runAll({
    skip: ['load', 'fuzz'],
    faults,
    grep: GREP,
    outDir: join(dir, name),
    verbose: false,
    log: () => {},
    env: { ...process.env, HARNESS_BASELINE: REFERENCE_BASELINE, HARNESS_COMPAT_FAIL_ON: failOn },
  });
  const c = summary.compatibility;
  assert.ok(c, `${name}: harness run put a compatibility report in summary.json`);
  assert.equal(c.error, undefined, `${name}: baseline read`);
  return { report: c, summary, exitCode };
}

describe('compare: the reference baseline against a faulty deployment', () => {
  let clean: CompatibilityReport;
  let faulty: CompatibilityReport;
  let cleanRun: Awaited<ReturnType<typeof contractRun>>;
  let faultyRun: Awaited<ReturnType<typeof contractRun>>;
  before(async () => {
    // Both gated at ERR: a correct deployment passes the gate, the faulty one fails it.
    cleanRun = await contractRun('clean', [], 'ERR');
    faultyRun = await contractRun('faulty', FAULTS, 'ERR');
    clean = cleanRun.report;
    faulty = faultyRun.report;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the baseline against itself is empty', () => {
    const base = loadSnapshot(REFERENCE_BASELINE);
    assert.deepEqual(compareSnapshots(base, base), []);
    assert.ok(base.limits.length >= 2, 'the baseline carries plan limits (a run with load)');
  });

  test('a clean run of the reference deployment adds no finding at all, and says what it left out', () => {
    assert.deepEqual(clean.findings, [], show(clean.findings));
    assert.ok(clean.partial, 'a --grep run is compared as partial');
    assert.ok((clean.notes ?? []).some((n) => n.kind === 'not-exercised'));
  });

  test('a run without the load area compares no plan limits: no limit finding, a note', () => {
    const limits = faulty.findings.filter((f) => f.rule.startsWith('limit-'));
    assert.deepEqual(limits.map(key), [], show(limits));
    assert.ok((faulty.notes ?? []).some((n) => n.kind === 'not-measured'));
  });

  test('the faults show as observed findings, each with rule, level and pointer', () => {
    const found = new Set(faulty.findings.map(key));
    const expected = [
      // list-without-tickets: the envelope lost its list of tickets
      'ERR response-field-removed GET /v1/tickets 200 /data',
      'WARN gap-value-changed U4 envelope-keys',
      // ratelimit-headers-missing-on-4xx: a 422 without X-RateLimit-*
      'ERR ratelimit-header-removed GET /v1/tickets 422 x-ratelimit-limit',
      'ERR ratelimit-header-removed GET /v1/tickets 422 x-ratelimit-remaining',
      'ERR ratelimit-header-removed GET /v1/tickets 422 x-ratelimit-reset',
    ];
    for (const e of expected)
      assert.ok(found.has(e), `missing: ${e}\nfound:\n${show(faulty.findings)}`);
    assert.ok(
      faulty.findings.every((f) => f.provenance === 'observed'),
      'every finding is observed',
    );
  });

  test('nothing else at ERR or WARN: only the faults changed', () => {
    const extra = faulty.findings.filter(
      (f) =>
        f.level !== 'INFO' &&
        !COVERAGE.has(f.rule) &&
        !(
          f.pointer.operation === 'GET /v1/tickets' &&
          ['200', '422'].includes(f.pointer.status ?? '')
        ) &&
        !(f.rule === 'ratelimit-header-removed' && /^4/.test(f.pointer.status ?? '')) &&
        !(f.pointer.gap === 'U4'),
    );
    assert.deepEqual(extra, [], show(extra));
  });

  test('gated at ERR (HARNESS_COMPAT_FAIL_ON): the clean run passes, the faulty one fails on its changes', () => {
    const ok = cleanRun.summary.areas.compatibility!;
    assert.notEqual(ok.verdict, 'fail', ok.headline);
    assert.deepEqual(ok.documentedFailures, []);
    assert.equal(cleanRun.exitCode, 0, ok.headline);
    const bad = faultyRun.summary.areas.compatibility!;
    assert.equal(bad.verdict, 'fail', bad.headline);
    assert.match(bad.headline, /gating at ERR/);
    const removed = bad.documentedFailures.find(
      (f) => f.check === 'compare.response-field-removed',
    );
    assert.ok(removed, bad.documentedFailures.map((f) => f.check).join(', '));
    assert.equal(removed.provenance, 'observed');
    assert.match(removed.received, /GET \/v1\/tickets 200 \/data/);
    assert.ok(bad.documentedFailures.every((f) => f.provenance === 'observed'));
    assert.equal(faultyRun.exitCode, 1);
  });

  test('the Markdown report leads with the change', () => {
    assert.match(faulty.markdown, /^## Behaviour compatibility report/, faulty.markdown);
    assert.match(faulty.markdown, /\*\*Behaviour changed for clients:\*\*/, faulty.markdown);
    assert.match(faulty.markdown, /`response-field-removed` \| GET \/v1\/tickets 200 \/data/);
  });
});
