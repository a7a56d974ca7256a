/**
 * The load area says what it is doing while it runs, for the Node driver and k6 alike: every
 * few seconds a line per plan with the phase, requests sent of those planned, 2xx, 429 and the
 * running estimate (burst once S1 met a 429, rate from S2's accepts); at the end the plan's real
 * counts and the estimators' B̂ and r̂. Plain lines here (the stream is no TTY, as in CI). A short
 * Team schedule at 10× on a fresh reference deployment; the verdicts are other suites' business.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import type { LoadResult } from '../../load/lib/index.ts';
import { startService } from '../../server/start.ts';
import { runLoad } from '../../load/run-load.ts';
import { K6, NO_K6 } from './k6-binary.ts';
import { SHORT } from './measure.ts';
import { oneLoadAtATime } from './one-load-at-a-time.ts';

if (!K6) console.log(`# ${NO_K6}`);

// The phases in words (DESIGN.md's load section), never their ids (S2b, S4 mean nothing).
const PHASE =
  '(probe|burst|second key|overdrive 4×rate|sustained 0\\.9×rate|drain|idle \\d+ s then burst|burst after \\d+ s idle|retry after 429)';
const LIVE = new RegExp(
  `^load \\d+ s · team ${PHASE} (\\d+)/(\\d+) sent, (\\d+) 2xx, (\\d+) 429, (burst ≈ \\d+|estimating)`,
);
const DONE =
  /^load \d+ s · team done (\d+)\/(\d+) sent, (\d+) 2xx, (\d+) 429, burst ≈ [\d.]+, rate ≈ [\d.]+\/min$/;

async function runWithProgress(engine: 'node' | 'k6'): Promise<{ lines: string[]; r: LoadResult }> {
  let text = '';
  const progress = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  const [r] = await oneLoadAtATime(async () => {
    const svc = await startService({ timeScale: 10 });
    try {
      const ws = svc.credentials.workspaces.team;
      return await runLoad({
        plans: ['team'],
        baseUrl: svc.baseUrl,
        keys: { team: [ws.keys.full, ws.keys.full2] },
        engine,
        timeScale: 10,
        outDir: null,
        maxSeconds: 120,
        schedule: { ...SHORT, idleS: [...SHORT.idleS] },
        progress,
        progressEveryMs: 1000,
      });
    } finally {
      await svc.close();
    }
  });
  return { lines: text.split('\n').filter((l) => l.startsWith('load ')), r: r! };
}

function assertProgress(lines: string[], r: LoadResult): void {
  const live = lines.filter((l) => LIVE.test(l));
  assert.ok(live.length >= 2, `live lines while it ran:\n${lines.join('\n')}`);
  assert.deepEqual(
    lines.filter((l) => /\b(S\d|S2b|D1)\b/.test(l)),
    [],
    'no phase named by its id',
  );
  // Counts only grow, never past the plan; the estimate appears once S1 met its first 429.
  let sent = 0;
  for (const l of live) {
    const [, , s, planned, ok, rej] = LIVE.exec(l)!;
    assert.ok(Number(s) >= sent, `sent went down: ${l}`);
    sent = Number(s);
    assert.ok(Number(ok) + Number(rej) <= Number(s) && Number(s) <= Number(planned), l);
  }
  assert.ok(
    live.some((l) => /burst ≈ \d+/.test(l)),
    `a running estimate:\n${lines.join('\n')}`,
  );
  const done = lines.at(-1)!;
  const m = DONE.exec(done);
  assert.ok(m, `the final line: ${done}`);
  const accepted = r.phases.reduce((n, p) => n + p.accepted, 0);
  const rejected = r.phases.reduce((n, p) => n + p.rejected, 0);
  assert.deepEqual(
    m.slice(1).map(Number),
    [r.requests.sent, r.requests.planned, accepted, rejected],
    'the final line has the result’s counts',
  );
}

describe('load progress line', () => {
  test('the Node driver', async () => {
    const { lines, r } = await runWithProgress('node');
    assert.equal(r.engine, 'node');
    assertProgress(lines, r);
  });

  test('k6 (its counters read from its REST API while it runs)', {
    skip: K6 ? false : NO_K6,
  }, async () => {
    const { lines, r } = await runWithProgress('k6');
    assert.equal(r.engine, 'k6');
    assertProgress(lines, r);
  });
});
