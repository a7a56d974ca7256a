/**
 * The pieces of the gate's verdict, one by one (gate.test.ts runs them end to end as separate
 * processes): exit codes with areas in `error` and with documented rules the target kept from
 * being checked, what the preflight's causes tell the user to fix, the workers' pulse that
 * notices a target gone silent, the outage set aside from the findings, and an erroring area or
 * an unchecked rule in junit.xml.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CheckResult } from '../../core/checks/verdict.ts';
import { notePulse, PulseWatch } from '../../contracts/transport-pulse.ts';
import type { TestRow } from '../../contracts/collect.ts';
import { junitXml } from '../../core/junit.ts';
import { junitSuites } from '../../report/run-junit.ts';
import { type AreaSummary, errorArea, notRunArea } from '../../core/area.ts';
import { renderConsole } from '../../report/console.ts';
import { exitCodeOf, type Summary } from '../../report/summary.ts';
import { summaryFixture } from './summary-fixture.ts';
import { guardArea, runClock } from '../../run/area-guard.ts';
import { setAsideOutage } from '../../contracts/contracts-step.ts';
import type { Preflight } from '../../run/preflight.ts';
import { unusableTarget, withoutV1 } from '../../run/unusable-target.ts';

const pass: AreaSummary = {
  verdict: 'pass',
  headline: 'ok',
  documentedFailures: [],
  assumptionMismatches: [],
  notRun: [],
};
const broken = {
  check: 'ticket.created-status-open',
  provenance: 'documented' as const,
  rule: 'r',
  received: 'status "new"',
  expected: 'status "open"',
};

describe('exit codes', () => {
  test('0 pass; 2 when an area could not run; 1 when a documented rule failed, whatever errored', () => {
    assert.equal(exitCodeOf({ contracts: pass, load: notRunArea('skipped') }, false), 0);
    assert.equal(exitCodeOf({ contracts: pass, fuzz: errorArea('target gone') }, false), 2);
    const failed = { ...pass, verdict: 'fail' as const, documentedFailures: [broken] };
    assert.equal(exitCodeOf({ contracts: failed, fuzz: errorArea('target gone') }, false), 1);
  });

  test('2 when the target kept a documented rule from being checked (the gate could not look); 1 still wins', () => {
    const kept = [{ check: 'auth.missing-key-rejected', rule: 'r', why: '429' }];
    assert.equal(exitCodeOf({ contracts: pass }, false, kept), 2);
    assert.equal(exitCodeOf({ contracts: pass }, false, []), 0);
    const failed = { ...pass, verdict: 'fail' as const, documentedFailures: [broken] };
    assert.equal(exitCodeOf({ contracts: failed }, false, kept), 1);
  });

  test('an erroring area keeps what it found before', () => {
    const a = errorArea('stopped', { ...pass, documentedFailures: [broken], headline: '3 tests' });
    assert.equal(a.verdict, 'error');
    assert.equal(a.error, 'stopped');
    assert.deepEqual(a.documentedFailures, [broken]);
    assert.equal(exitCodeOf({ contracts: a }, false), 1);
  });
});

describe('area guard', () => {
  test('a throw becomes verdict error with its first line, no stack', async () => {
    const lines: string[] = [];
    const g = await guardArea(
      'fuzz',
      runClock(undefined),
      async () => {
        throw new Error('admin surface POST /x: no answer (ECONNREFUSED)\n    at f (x.ts:1:2)');
      },
      (l) => lines.push(l),
    );
    assert.equal(g.area.verdict, 'error');
    assert.equal(
      g.area.error,
      'fuzz could not run to its end: admin surface POST /x: no answer (ECONNREFUSED)',
    );
    assert.equal(lines.join('\n').includes('x.ts:1:2'), false);
  });

  test('the run time limit stops an area that does not end', async () => {
    const g = await guardArea(
      'load',
      runClock(0.05),
      () => new Promise(() => {}),
      () => {},
    );
    assert.equal(g.outOfTime, true);
    assert.match(g.area.error ?? '', /time limit .* was reached during this area/);
  });
});

describe('what an unusable target tells the user to fix', () => {
  const pre = (p: Partial<Preflight>): Preflight => ({
    state: 'ok',
    detail: '',
    url: 'https://api.example.com/v1/tickets?limit=1',
    ms: 1,
    ...p,
  });

  test('a base URL ending in /v1: the URL without it', () => {
    assert.equal(withoutV1('https://api.example.com/v1'), 'https://api.example.com');
    assert.equal(withoutV1('https://example.com/api/v1/'), 'https://example.com/api');
    assert.equal(withoutV1('https://api.example.com'), undefined);
    const u = unusableTarget(
      pre({
        state: 'not-found',
        status: 404,
        url: 'https://api.example.com/v1/v1/tickets?limit=1',
      }),
      'https://api.example.com/v1',
    );
    assert.match(
      u!.cause,
      /GET https:\/\/api\.example\.com\/v1\/v1\/tickets\?limit=1 answered HTTP 404/,
    );
    assert.match(u!.fix, /set HARNESS_BASE_URL=https:\/\/api\.example\.com$/);
  });

  test('a redirect to HTTPS: the https base URL; elsewhere: the API itself', () => {
    const toHttps = unusableTarget(
      pre({
        state: 'redirect',
        status: 301,
        location: 'https://api.example.com/v1/tickets?limit=1',
      }),
      'http://api.example.com',
    );
    assert.match(toHttps!.fix, /set HARNESS_BASE_URL=https:\/\/api\.example\.com$/);
    const toLogin = unusableTarget(
      pre({ state: 'redirect', status: 302, location: 'https://sso.example.com/login' }),
      'https://api.example.com',
    );
    assert.match(toLogin!.fix, /not at a login page/);
  });

  test('DNS, a dropped connection, a port without TLS: each its own fix', () => {
    const base = 'https://staging.example.com';
    assert.match(
      unusableTarget(pre({ state: 'dns', code: 'ENOTFOUND' }), base)!.cause,
      /host staging\.example\.com not found \(ENOTFOUND\)/,
    );
    assert.match(
      unusableTarget(pre({ state: 'closed', code: 'ECONNRESET' }), base)!.fix,
      /proxy in front of it/,
    );
    const plain = pre({
      state: 'tls',
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      detail: 'TLS failure: wrong version number',
    });
    assert.match(unusableTarget(plain, base)!.fix, /does not speak TLS: is the URL http:\/\//);
  });

  test('a 403 on the key may also be a network rule; an ok preflight is usable', () => {
    const u = unusableTarget(pre({ state: 'key-refused', status: 403 }), 'https://api.example.com');
    assert.match(u!.fix, /HARNESS_API_KEY.*403 may also mean/);
    assert.equal(unusableTarget(pre({ state: 'ok' }), 'https://api.example.com'), undefined);
  });
});

describe('the pulse: a target that stops answering', () => {
  const ex = (answered: boolean) => ({
    request: { method: 'GET', url: 'http://x/v1/tickets', headers: {} },
    durationMs: 1,
    ...(answered
      ? { response: { status: 200, headers: {}, bodyText: '' } }
      : { error: 'apiRequestContext.fetch: Timeout 2000ms exceeded.' }),
  });

  test('three unanswered requests in a row, from any worker, and only in a row', () => {
    const raw = mkdtempSync(join(tmpdir(), 'harness-pulse-'));
    const watch = new PulseWatch(join(raw, 'transport.log'));
    assert.equal(watch.poll(), undefined, 'no file yet');
    for (const a of [false, false, true, false, false]) notePulse(raw, ex(a));
    assert.equal(watch.poll(), undefined, 'an answer in between resets the streak');
    notePulse(raw, ex(false));
    const down = watch.poll();
    assert.equal(down?.count, 3);
    assert.equal(down?.error, 'Timeout 2000ms exceeded.');
  });

  test('a half-written last line is read once complete', () => {
    const raw = mkdtempSync(join(tmpdir(), 'harness-pulse-'));
    const file = join(raw, 'transport.log');
    const watch = new PulseWatch(file, 1);
    writeFileSync(file, '1 down conn');
    assert.equal(watch.poll(), undefined);
    writeFileSync(file, '1 down connect ECONNREFUSED\n');
    assert.equal(watch.poll()?.error, 'connect ECONNREFUSED');
  });
});

describe('the outage is not a finding', () => {
  const result = (test: string, failedAt: number, noAnswer = false): CheckResult => ({
    test,
    check: 'auth.readonly-403',
    provenance: 'documented',
    passed: false,
    failure: { ...broken, check: 'auth.readonly-403' },
    failedAt,
    ...(noAnswer ? { noAnswer: true as const } : {}),
  });
  const row = (
    title: string,
    status: TestRow['status'],
    startedAt?: number,
    extra = {},
  ): TestRow => ({
    title,
    file: 'a.spec.ts',
    project: 'contracts',
    status,
    durationMs: 10,
    tags: [],
    ...(startedAt === undefined ? {} : { startedAt }),
    ...extra,
  });

  test('failures from the outage on are set aside; what the target answered before stays', () => {
    const since = 1000;
    const { results, tests } = setAsideOutage(
      since,
      [
        result('before', 500), // a real failure before the target went down
        result('isolated drop', 600, true), // one request dropped before: a real failure too
        result('cut', 1005), // failed in a test the outage cut
        result('no answer', 1010, true), // failed for want of an answer
      ],
      [
        row('before', 'failed', 400),
        row('isolated drop', 'failed', 550),
        row('cut', 'failed', 995),
        row('no answer', 'failed', 1001),
        row('never started', 'skipped'),
        row('needs a key', 'skipped', 1002, { reason: 'not run: needs HARNESS_READONLY_KEY' }),
        row('passed', 'passed', 1003),
      ],
    );
    assert.deepEqual(
      results.map((r) => r.test),
      ['before', 'isolated drop'],
    );
    const status = Object.fromEntries(
      tests.map((t) => [t.title, `${t.status}: ${t.reason ?? ''}`]),
    );
    assert.match(status.cut!, /^skipped: not run to the end: the target stopped answering/);
    assert.match(status['never started']!, /^skipped: not run to the end/);
    assert.equal(status['needs a key'], 'skipped: not run: needs HARNESS_READONLY_KEY');
    assert.equal(status.before, 'failed: ');
    assert.equal(status.passed, 'passed: ');
  });
});

test('an unusable target in junit.xml: one erroring case naming the cause', () => {
  const summary = {
    strict: false,
    checks: [],
    unusable: { cause: 'connection refused by h:1 (ECONNREFUSED)', fix: 'start it' },
    areas: {
      preflight: errorArea('target unusable: connection refused by h:1 (ECONNREFUSED) — start it'),
      contracts: notRunArea('not run: the target is unusable (preflight)'),
    },
  } as unknown as Summary;
  const xml = junitXml(junitSuites(summary, []));
  assert.match(
    xml,
    /<testsuites name="support-ticketing-harness" tests="2" failures="0" skipped="1" errors="1">/,
  );
  assert.match(
    xml,
    /<testcase name="target usable" classname="preflight\.error">\s*<error message="target unusable: connection refused by h:1 \(ECONNREFUSED\) — start it">connection refused by h:1 \(ECONNREFUSED\)\nWhat to fix: start it<\/error>/,
  );
});

test('a documented rule the target kept from being checked, in junit.xml and on the console: an error naming it and why', () => {
  const summary = summaryFixture({
    verdict: 'error',
    exitCode: 2,
    areas: { contracts: { ...pass, headline: '69 tests' } },
    unchecked: [
      {
        check: 'auth.missing-key-rejected',
        rule: 'Every API request is authenticated with a workspace API key (Authorization: Bearer).',
        why: 'not reached on 16 of the 16 operations and events it applies to — the target answered 429',
      },
    ],
  });
  const xml = junitXml(junitSuites(summary, []));
  assert.match(xml, /errors="1"/);
  assert.match(
    xml,
    /<testcase name="auth\.missing-key-rejected checked" classname="contracts\.unchecked">\s*<error message="not reached on 16 of the 16 operations/,
  );
  const text = renderConsole(summary, '/tmp/out');
  assert.match(
    text,
    /--- not checked: the target's own answers kept these documented rules from being checked \(1\) ---\n\[auth\.missing-key-rejected\]/,
  );
  const last = text.trimEnd().split('\n').at(-1)!;
  assert.match(
    last,
    /^verdict: ERROR \(exit 2\) in 1\.0 s — 1 documented rule not checked: the target's answers kept the gate from looking/,
  );
});
