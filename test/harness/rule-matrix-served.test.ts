/**
 * The rule × operation matrix against a deployment this test did not start in its own process:
 * `harness serve` (a separate process, its keys read back from the credentials file it writes and
 * handed over as HARNESS_* variables only — HARNESS_API_KEY listed in HARNESS_TEAM_KEYS, as the
 * file gives it). A correct deployment passes with every documented cell checked; each fault the
 * matrix was built to catch fails exactly its named check, and no other documented rule; without
 * the other workspace's key, its cells are not reached and say which variable is missing (still a
 * pass); a deployment that answers every request without a valid key 429 is no pass, naming the
 * rules it kept from being checked. A counting proxy in front of it says what the matrix costs
 * each key.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAll } from '../../run/run-all.ts';
import { type ServedDeployment, spawnServe } from '../../run/serve-process.ts';
import { pipeTo } from './pipe-to.ts';

const GREP = 'rule × operation matrix';

type Who = 'full' | 'readOnly' | 'other' | 'no valid key';

/** A proxy that counts the requests it forwards by the key they carry. */
async function countingProxy(upstream: string, vars: Record<string, string>) {
  const counts: Record<Who, number> = { full: 0, readOnly: 0, other: 0, 'no valid key': 0 };
  const who = (auth: string | undefined): Who =>
    auth === `Bearer ${vars.HARNESS_API_KEY}`
      ? 'full'
      : auth === `Bearer ${vars.HARNESS_READONLY_KEY}`
        ? 'readOnly'
        : auth === `Bearer ${vars.HARNESS_OTHER_WORKSPACE_KEY}`
          ? 'other'
          : 'no valid key';
  const up = new URL(upstream);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/v1')) counts[who(req.headers.authorization)]++;
    pipeTo(up, req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The matrix alone (contracts only) against a served deployment, given by HARNESS_* variables. */
async function runMatrix(vars: Record<string, string>, baseUrl = vars.HARNESS_BASE_URL!) {
  return runAll({
    outDir: join(mkdtempSync(join(tmpdir(), 'harness-matrix-')), 'latest'),
    skip: ['load', 'fuzz'],
    grep: GREP,
    verbose: false,
    log: () => {},
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...vars,
      HARNESS_BASE_URL: baseUrl,
      HARNESS_BASELINE: 'off',
    },
  });
}

describe('the rule × operation matrix against a separately served deployment', {
  timeout: 600_000,
}, () => {
  let served: ServedDeployment;
  before(async () => {
    served = await spawnServe([]);
  });
  after(async () => {
    await served?.stop();
  });

  test('a correct deployment: a clean pass, every documented rule checked on every operation it applies to', async (t) => {
    const proxy = await countingProxy(served.baseUrl, served.vars);
    try {
      const { summary, exitCode } = await runMatrix(served.vars, proxy.url);
      const contracts = summary.areas.contracts!;
      assert.deepEqual(contracts.documentedFailures, [], contracts.headline);
      assert.deepEqual(contracts.assumptionMismatches, [], contracts.headline);
      assert.equal(exitCode, 0, contracts.headline);
      assert.equal(summary.verdict, 'pass');
      assert.equal(summary.unchecked, undefined, 'the gate looked at every documented rule');
      assert.ok(summary.rules?.length, 'summary.json has what it looked at, per documented rule');
      const m = summary.matrix!;
      assert.ok(m, 'summary.json has the matrix');
      assert.equal(m.counts.failed, 0);
      for (const row of m.rows.filter((r) => r.provenance === 'documented')) {
        for (const col of m.columns.filter((c) => c.kind === 'operation')) {
          const cell = row.cells[col.id]!;
          assert.ok(
            cell.state !== 'not-reached',
            `${row.check} × ${col.id}: not reached (${'why' in cell ? cell.why : ''})`,
          );
        }
      }
      const plan = m.rows.find((r) => r.check === 'ratelimit.plan-limit')!;
      assert.ok(
        Object.values(plan.cells).some((c) => c.state === 'checked' && c.passed > 0),
        'the Team key of the credentials file was held to 120',
      );
      t.diagnostic(
        `requests by key (matrix, preflight and clean-up): ${JSON.stringify(proxy.counts)}`,
      );
      // Workspace A's key pays only for the shared objects, the preflight and the clean-up.
      assert.ok(proxy.counts.full <= 8, `HARNESS_API_KEY: ${proxy.counts.full} requests`);
      assert.ok(proxy.counts.readOnly <= 20, `read-only key: ${proxy.counts.readOnly}`);
      assert.ok(proxy.counts.other <= 30, `other workspace: ${proxy.counts.other}`);
    } finally {
      await proxy.close();
    }
  });

  test("without the other workspace's key: its cells are not reached, naming the variable, and nothing fails", async () => {
    const { HARNESS_OTHER_WORKSPACE_KEY: _, ...vars } = served.vars;
    const { summary, exitCode } = await runMatrix(vars);
    const contracts = summary.areas.contracts!;
    assert.deepEqual(contracts.documentedFailures, [], contracts.headline);
    assert.equal(exitCode, 0, contracts.headline);
    // An option the user did not give: listed, never held against the run.
    assert.equal(summary.verdict, 'pass');
    assert.equal(summary.unchecked, undefined);
    const list = summary.rules!.find((r) => r.check === 'isolation.list')!;
    assert.ok(
      list.cells!.notReached.some((n) => /HARNESS_OTHER_WORKSPACE_KEY/.test(n.why) && !n.byTarget),
      JSON.stringify(list),
    );
    const rows = summary.matrix!.rows;
    for (const [check, column] of [
      ['isolation.count', 'getReportSummary'],
      ['isolation.list', 'listTickets'],
    ] as const) {
      const cell = rows.find((r) => r.check === check)!.cells[column]!;
      assert.equal(cell.state, 'not-reached', `${check} × ${column}`);
      assert.match('why' in cell ? cell.why : '', /HARNESS_OTHER_WORKSPACE_KEY/);
    }
  });

  test('keyless-429 (every request without a valid key answered 429): nothing fails, and still no pass — the authentication rules the target kept from being checked are named, exit 2', async () => {
    const faulty = await spawnServe(['--fault', 'keyless-429']);
    try {
      const { summary, exitCode } = await runMatrix(faulty.vars);
      const contracts = summary.areas.contracts!;
      assert.deepEqual(contracts.documentedFailures, [], contracts.headline);
      assert.equal(exitCode, 2);
      assert.equal(summary.verdict, 'error');
      assert.deepEqual(summary.unchecked!.map((u) => u.check).sort(), [
        'auth.invalid-key-rejected',
        'auth.malformed-authorization-rejected',
        'auth.missing-key-rejected',
        'auth.refusal-carries-no-data',
      ]);
      for (const u of summary.unchecked!) assert.match(u.why, /answered 429/, u.check);
      const row = summary.matrix!.rows.find((r) => r.check === 'auth.missing-key-rejected')!;
      assert.ok(
        Object.values(row.cells).every((c) => c.state !== 'checked'),
        'no 429 counted as the rule checked',
      );
    } finally {
      await faulty.stop();
    }
  });

  for (const [fault, check] of [
    ['get-ticket-no-auth', 'auth.missing-key-rejected'],
    ['malformed-authorization-accepted', 'auth.malformed-authorization-rejected'],
    ['401-with-data', 'auth.refusal-carries-no-data'],
    ['get-contact-cross-workspace', 'isolation.get-other-workspace'],
    ['team-limit-header-600', 'ratelimit.plan-limit'],
    ['report-counts-every-workspace', 'isolation.count'],
  ] as const) {
    test(`${fault}: the matrix fails ${check}, and no other documented rule`, async () => {
      const faulty = await spawnServe(['--fault', fault]);
      try {
        const { summary, exitCode } = await runMatrix(faulty.vars);
        const failed = [
          ...new Set(summary.areas.contracts!.documentedFailures.map((f) => f.check)),
        ];
        assert.deepEqual(failed, [check], summary.areas.contracts!.headline);
        assert.equal(exitCode, 1);
        const row = summary.matrix!.rows.find((r) => r.check === check)!;
        assert.ok(
          Object.values(row.cells).some((c) => c.state === 'checked' && c.failed > 0),
          'the failing cell shows in the matrix',
        );
      } finally {
        await faulty.stop();
      }
    });
  }
});
