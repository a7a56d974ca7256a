/**
 * The CI gate holds whatever staging it meets: each target is a separate process —
 * a misbehaving server of gate-target.ts, or the reference deployment as `npm run serve` starts
 * it — and `harness run` is another, reached only through HARNESS_* variables. Every run ends
 * with a verdict line, the right exit code, every report written and no stack trace:
 *
 *   unusable (exit 2, in seconds): a closed port, HTML 200 to everything, a server that accepts
 *   and never answers, self-signed https, a made-up API key, a base URL ending in /v1;
 *   mid-run: a target going silent during the contract suite stops that area (error, exit 2);
 *   a target dying during the fuzz area keeps the contract failure found before (exit 1);
 *   the run's time limit stops the run and still writes every report (exit 2).
 *
 * The runs are independent, so they all start at once and each test awaits its own.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Summary } from '../../report/summary.ts';
import { freePort } from '../../core/net.ts';
import {
  type HarnessRun,
  runHarness,
  STACK_FRAME,
  serveReference,
  startTarget,
  stopAll,
} from './gate-processes.ts';

const MADE_UP_KEY = 'stk_full_madeUpByTheGateTest0001';
const tmp = mkdtempSync(join(tmpdir(), 'harness-gate-targets-'));
const runs = new Map<string, Promise<HarnessRun>>();
let refUrl = '';

const summaryOf = (r: HarnessRun) => JSON.parse(r.read('summary.json')) as Summary;

/** What every run must leave: reports, a verdict line, no stack trace, no key. */
function assertReported(r: HarnessRun, key?: string): void {
  for (const f of ['summary.json', 'junit.xml', 'index.html', 'snapshot.json'])
    assert.ok(r.wrote(f), `${f} written\n${r.stderr}`);
  assert.match(r.stdout, /^verdict: (PASS|FAIL|ERROR) \(exit \d\) in [\d.]+ s/m, r.stdout);
  const both = `${r.stdout}\n${r.stderr}`;
  assert.doesNotMatch(both, STACK_FRAME, 'no stack trace in the output');
  if (key)
    for (const f of ['summary.json', 'junit.xml', 'index.html'])
      assert.equal(r.read(f).includes(key), false, `the key never appears in ${f}`);
  if (key) assert.equal(both.includes(key), false, 'the key never appears in the output');
}

/** An unusable target: exit 2, the verdict naming the cause, no check ran, every report. */
async function assertUnusable(name: string, cause: RegExp, fix: RegExp, key?: string) {
  const r = await runs.get(name)!;
  assertReported(r, key);
  assert.equal(r.code, 2, `exit 2 (could not run)\n${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /^verdict: ERROR \(exit 2\) in [\d.]+ s — target unusable: /m);
  const verdict = /^verdict: .*$/m.exec(r.stdout)![0];
  assert.match(verdict, cause, 'the verdict line names the cause');
  assert.match(r.stdout, /^ {2}what to fix: .+/m);
  const s = summaryOf(r);
  assert.equal(s.verdict, 'error');
  assert.equal(s.exitCode, 2);
  assert.match(s.unusable?.cause ?? '', cause);
  assert.match(s.unusable?.fix ?? '', fix, 'what to fix');
  assert.equal(s.areas.preflight?.verdict, 'error');
  for (const [area, a] of Object.entries(s.areas)) {
    assert.deepEqual(
      a.documentedFailures,
      [],
      `${area}: an unusable target breaks no documented rule`,
    );
    if (area !== 'preflight') assert.equal(a.verdict, 'not-run', `${area} not run`);
  }
  assert.equal(s.tests.total, 0, 'no contract test ran');
  const junit = r.read('junit.xml');
  assert.match(
    junit,
    /<testcase name="target usable" classname="preflight\.error">\s*<error message="target unusable: /,
  );
  assert.equal((junit.match(/<error /g) ?? []).length, 1, 'one erroring case');
  assert.doesNotMatch(junit, /<failure/, 'no failing rule');
  const html = r.read('index.html');
  assert.match(html, /Target unusable<\/b>/);
  assert.match(html, /No check ran, so no rule was judged\./);
  assert.doesNotMatch(html, /No documented rule is broken/, 'nothing judged is no green light');
}

before(async () => {
  const [ref, faulty] = await Promise.all([
    serveReference(),
    serveReference(['create-status-new']),
  ]);
  refUrl = ref.baseUrl;
  const certA = join(tmp, 'silent-after.pem');
  const [html, silent, selfSigned, goesSilent, dies] = await Promise.all([
    startTarget('html'),
    startTarget('silent'),
    startTarget('tls-proxy', [
      '--upstream',
      ref.baseUrl,
      '--cert-out',
      join(tmp, 'self-signed.pem'),
    ]),
    // A private CA (trusted with NODE_EXTRA_CA_CERTS) in front of a deployment that goes silent.
    startTarget('tls-proxy', [
      '--upstream',
      ref.baseUrl,
      '--cert-out',
      certA,
      '--silent-after',
      '12',
    ]),
    // Self-signed (HARNESS_ALLOW_INSECURE) in front of a faulty deployment; dies on a trigger.
    startTarget('tls-proxy', [
      '--upstream',
      faulty.baseUrl,
      '--cert-out',
      join(tmp, 'dies.pem'),
      '--die-on',
      join(tmp, 'die-now'),
    ]),
  ]);
  const key = { HARNESS_API_KEY: MADE_UP_KEY };
  runs.set(
    'closed port',
    runHarness({ HARNESS_BASE_URL: `http://127.0.0.1:${await freePort()}`, ...key }),
  );
  runs.set('html', runHarness({ HARNESS_BASE_URL: html.url, ...key }));
  // Default timeouts: the preflight's bound is what keeps this short.
  runs.set('silent', runHarness({ HARNESS_BASE_URL: silent.url, ...key }));
  runs.set('self-signed', runHarness({ ...ref.vars, HARNESS_BASE_URL: selfSigned.url }));
  runs.set('wrong key', runHarness({ ...ref.vars, ...key }));
  runs.set('trailing /v1', runHarness({ ...ref.vars, HARNESS_BASE_URL: `${ref.baseUrl}/v1` }));
  runs.set(
    'goes silent',
    runHarness(
      {
        ...ref.vars,
        HARNESS_BASE_URL: goesSilent.url,
        NODE_EXTRA_CA_CERTS: certA,
        // Short enough that three unanswered requests end the suite in seconds, with room for
        // the dozen answered ones on a busy CI machine. (The CI runs that saw "0 tests passed"
        // here had lost the suite's report to the stop itself: contracts/reports-outlive-stop.ts.)
        HARNESS_TIMEOUT_MS: '5000',
      },
      // The creation validation tests, one request each: a dozen answered, then silence (the
      // read-only key's, once a test per operation, are one rule-matrix test now); the fuzz area
      // after them (which --grep alone would leave out) finds the target gone.
      ['--area', 'contracts,fuzz', '--grep', '@validation.invalid-rejected'],
    ),
  );
  runs.set(
    'dies during fuzz',
    runHarness(
      { ...faulty.vars, HARNESS_BASE_URL: dies.url, HARNESS_ALLOW_INSECURE: '1' },
      // The test of the faulty rule only: the contract failure, quickly; then the fuzz area,
      // which --grep alone would leave out.
      ['--area', 'contracts,fuzz', '--grep', '@ticket.created-status-open'],
      {
        // The fuzz area has started: the proxy's next request is its last.
        onLine: (l) => {
          if (l.startsWith('[3/3]')) writeFileSync(join(tmp, 'die-now'), '');
        },
      },
    ),
  );
  runs.set('time limit', runHarness(ref.vars, ['--skip', 'load', '--max-seconds', '4']));
});

after(async () => {
  await stopAll();
  rmSync(tmp, { recursive: true, force: true });
});

describe('an unusable target: the run stops at the preflight with exit 2 and every report', {
  timeout: 120_000,
}, () => {
  test('closed port', () =>
    assertUnusable(
      'closed port',
      /connection refused by 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
      /start the deployment/,
      MADE_UP_KEY,
    ));

  test('HTML 200 to everything', () =>
    assertUnusable(
      'html',
      /answered HTTP 200, Content-Type text\/html, body is not JSON/,
      /not a web page/,
      MADE_UP_KEY,
    ));

  test('accepts and never answers (bounded by the preflight timeout)', () =>
    assertUnusable('silent', /no answer within 10000 ms/, /does not answer/, MADE_UP_KEY));

  test('self-signed https: the fix names NODE_EXTRA_CA_CERTS and HARNESS_ALLOW_INSECURE', () =>
    assertUnusable(
      'self-signed',
      /TLS failure: self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
      /NODE_EXTRA_CA_CERTS=.*HARNESS_ALLOW_INSECURE=1/,
    ));

  test('a made-up API key', () =>
    assertUnusable(
      'wrong key',
      /answered HTTP 401: the deployment refused HARNESS_API_KEY/,
      /set HARNESS_API_KEY to a full-access key/,
      MADE_UP_KEY,
    ));

  test('a base URL ending in /v1: the URL requested and the base URL to use instead', async () => {
    await assertUnusable(
      'trailing /v1',
      /GET http:\/\/127\.0\.0\.1:\d+\/v1\/v1\/tickets\?limit=1 answered HTTP 404/,
      /ends in \/v1/,
    );
    const r = await runs.get('trailing /v1')!;
    assert.ok(
      r.stdout.includes(`set HARNESS_BASE_URL=${refUrl}\n`) ||
        r.stdout.includes(`set HARNESS_BASE_URL=${refUrl} `) ||
        summaryOf(r).unusable!.fix.endsWith(`set HARNESS_BASE_URL=${refUrl}`),
      r.stdout,
    );
  });
});

describe('a target that fails mid-run: that area errors, the others keep what they found', {
  timeout: 120_000,
}, () => {
  test('silent during the contract suite: the area stops with "target stopped answering", exit 2', async () => {
    const r = await runs.get('goes silent')!;
    assertReported(r);
    assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
    const s = summaryOf(r);
    const contracts = s.areas.contracts!;
    assert.equal(contracts.verdict, 'error', contracts.headline);
    assert.match(
      contracts.error ?? '',
      /^the target stopped answering: \d+ requests in a row got no answer/,
    );
    // Through the private CA (NODE_EXTRA_CA_CERTS) the suite talked to the target before.
    assert.ok(
      s.tests.passed > 0,
      `tests passed before the silence: ${s.tests.passed} (${JSON.stringify(s.tests)}; ${contracts.headline})\n${r.stdout.slice(-3000)}`,
    );
    for (const f of Object.values(s.areas).flatMap((a) => [
      ...a.documentedFailures,
      ...a.assumptionMismatches,
    ]))
      assert.doesNotMatch(
        f.received,
        /timeout|no response|ECONN/i,
        `the outage is no finding: ${f.check}`,
      );
    assert.ok(
      contracts.notRun.some((n) =>
        /^not run to the end: the target stopped answering/.test(n.reason),
      ),
      'the tests the outage cut are listed as not run, with why',
    );
    assert.equal(s.areas.fuzz?.verdict, 'error');
    assert.match(s.areas.fuzz?.error ?? '', /^not run: the target stopped answering/);
    assert.match(
      r.stdout,
      /^verdict: ERROR \(exit 2\) in [\d.]+ s — contracts, fuzz could not run to the end/m,
    );
    assert.match(
      r.read('junit.xml'),
      /<testcase name="contracts ran to its end" classname="contracts\.error">\s*<error message="the target stopped answering/,
    );
  });

  test('dead during the fuzz area: fuzz errors, the contract failure stays, exit 1', async () => {
    const r = await runs.get('dies during fuzz')!;
    assertReported(r);
    assert.equal(r.code, 1, `a documented rule failed\n${r.stdout}\n${r.stderr}`);
    const s = summaryOf(r);
    assert.equal(s.verdict, 'fail');
    const contracts = s.areas.contracts!;
    assert.ok(
      contracts.documentedFailures.some((f) => f.check === 'ticket.created-status-open'),
      `the contract failure is kept: ${contracts.headline}`,
    );
    const fuzz = s.areas.fuzz!;
    assert.equal(fuzz.verdict, 'error', fuzz.headline);
    assert.match(
      fuzz.error ?? '',
      /^the target stopped answering: .* — fuzz could not run to its end: /,
    );
    assert.match(r.stdout, /^fuzz: /m, 'the console names the area that could not finish');
    assert.match(
      r.stdout,
      /^verdict: FAIL \(exit 1\) in [\d.]+ s — fuzz could not run to the end/m,
    );
    const junit = r.read('junit.xml');
    assert.match(
      junit,
      /<testcase name="ticket\.created-status-open" classname="contracts\.documented">\s*<failure/,
    );
    assert.match(junit, /classname="fuzz\.error">\s*<error /);
  });

  test('the run time limit: the area running stops, the rest are marked, every report is written', async () => {
    const r = await runs.get('time limit')!;
    assertReported(r);
    assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
    const s = summaryOf(r);
    assert.match(
      s.areas.contracts?.error ?? '',
      /time limit \(--max-seconds \/ HARNESS_RUN_MAX_SECONDS 4 s\)/,
    );
    assert.equal(s.areas.fuzz?.verdict, 'error');
    assert.match(s.areas.fuzz?.error ?? '', /^not run: the run's time limit .* was reached/);
  });
});
