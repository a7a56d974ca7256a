/**
 * The compare on a deployment the harness did not start: `harness serve` as its own process,
 * and `harness run` (as its own process too) reaching it only through the variables serve wrote.
 * Run 2 meets what run 1 left behind on the deployment (its tickets, contacts): other data, the
 * same behaviour — zero findings against run 1's snapshot; a `--grep` run after them, zero too.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Summary } from '../../report/summary.ts';
import { type HarnessRun, runHarness, serveReference, stopAll } from '../harness/gate-processes.ts';

const ARGS = ['--skip', 'load', '--skip', 'fuzz'];

const summaryOf = (r: HarnessRun) => JSON.parse(r.read('summary.json')) as Summary;
const findings = (s: Summary) =>
  (s.compatibility?.findings ?? []).map((f) => `${f.level} ${f.rule}: ${f.message}`);

describe('compare against a served deployment', { timeout: 600_000 }, () => {
  let vars: Record<string, string>;
  let first: HarnessRun;
  before(async () => {
    ({ vars } = await serveReference());
    first = await runHarness({ ...vars, HARNESS_BASELINE: 'off' }, ARGS, { limitMs: 240_000 });
    assert.equal(first.code, 0, first.stderr.slice(-2000));
  });
  after(stopAll);

  test('run 2 against run 1: no finding, the verdict row PASS', async () => {
    const baseline = join(first.out, 'snapshot.json');
    const second = await runHarness({ ...vars, HARNESS_BASELINE: baseline }, ARGS, {
      limitMs: 240_000,
    });
    assert.equal(second.code, 0, second.stderr.slice(-2000));
    const s = summaryOf(second);
    assert.ok(s.compatibility, 'compared');
    assert.deepEqual(findings(s), []);
    assert.match(second.stdout, /^compatibility\s+PASS\s/m);
  });

  test('a --grep run against run 1: no finding, what it did not run left out', async () => {
    const baseline = join(first.out, 'snapshot.json');
    const grep = await runHarness(
      { ...vars, HARNESS_BASELINE: baseline },
      [...ARGS, '--grep', '@auth.invalid-key-401'],
      { limitMs: 240_000 },
    );
    assert.equal(grep.code, 0, grep.stderr.slice(-2000));
    const s = summaryOf(grep);
    assert.deepEqual(findings(s), []);
    assert.ok((s.compatibility?.notes ?? []).some((n) => n.kind === 'not-exercised'));
    assert.match(grep.stdout, /^compatibility\s+PASS\s/m);
  });
});
