/**
 * A curl repro runs as pasted into a POSIX shell: the words `sh` makes of it are exactly the
 * request that was sent, with each key read from the variable that holds it. The repro's
 * `curl` is swapped for a printer of its arguments, so no request is sent here (the replay of
 * real repros against a deployment is in repro-replay.test.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { curlRepro, nameInRepros } from '../../core/checks/repro.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { BOGUS_KEY_PREFIX, registerSecret } from '../../core/redact.ts';

const FULL = 'stk_full_reproTestKey000000001';
const READ = 'stk_read_reproTestKey000000002';
const OTHER = 'stk_full_reproTestKey000000003';
const UNNAMED = 'stk_full_reproTestKey000000004';
registerSecret(FULL, 'HARNESS_API_KEY');
registerSecret(READ, 'HARNESS_READONLY_KEY');
registerSecret(OTHER, 'HARNESS_OTHER_WORKSPACE_KEY');
registerSecret(UNNAMED);

function exchange(headers: Record<string, string>, body?: string, url?: string): Exchange {
  return {
    request: {
      method: 'POST',
      url: url ?? 'http://127.0.0.1:9/v1/tickets?status=open&x=1',
      headers,
      ...(body === undefined ? {} : { body }),
    },
    durationMs: 1,
  };
}

/** The argument words `sh` makes of the repro (curl replaced by a NUL-separated printer). */
function shellWords(repro: string, env: Record<string, string>): string[] {
  assert.match(repro, /^curl /);
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${repro.slice('curl '.length)}`], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

const ENV = {
  HARNESS_API_KEY: FULL,
  HARNESS_READONLY_KEY: READ,
  HARNESS_OTHER_WORKSPACE_KEY: OTHER,
};

describe('curl repros run as pasted', () => {
  test('each key is the variable that holds it, and the shell expands it', () => {
    for (const [key, name] of [
      [FULL, 'HARNESS_API_KEY'],
      [READ, 'HARNESS_READONLY_KEY'],
      [OTHER, 'HARNESS_OTHER_WORKSPACE_KEY'],
    ] as const) {
      const repro = curlRepro(exchange({ authorization: `Bearer ${key}` }));
      assert.ok(repro.includes(`"authorization: Bearer $${name}"`), repro);
      assert.equal(repro.includes(key), false, 'the key itself never appears');
      const words = shellWords(repro, ENV);
      assert.ok(words.includes(`authorization: Bearer ${key}`), words.join(' | '));
    }
  });

  test('a harness-invented bogus key is shown as sent; a secret without a variable stays masked', () => {
    const bogus = `${BOGUS_KEY_PREFIX}0123456789abcdef`;
    const words = shellWords(curlRepro(exchange({ authorization: `Bearer ${bogus}` })), ENV);
    assert.ok(words.includes(`authorization: Bearer ${bogus}`), words.join(' | '));
    const masked = curlRepro(exchange({ authorization: `Bearer ${UNNAMED}` }));
    assert.equal(masked.includes(UNNAMED), false);
    assert.match(masked, /Bearer \[REDACTED\]/);
    // A token nobody registered is masked by its shape.
    assert.match(curlRepro(exchange({ authorization: 'Bearer abcdefghijkl' })), /\[REDACTED\]/);
  });

  test('shell-special characters in headers, body and URL reach curl literally', () => {
    const hostile = `a "quoted" $HOME \`id\` back\\slash it's! $(id)`;
    const body = JSON.stringify({ subject: hostile, n: "'; rm -rf / #" });
    const url = "http://127.0.0.1:9/v1/tickets?q=it's%20$HOME&x=`id`";
    const repro = curlRepro(
      exchange({ authorization: `Bearer ${FULL}`, 'x-note': hostile }, body, url),
    );
    const words = shellWords(repro, { ...ENV, HOME: '/should-not-expand' });
    assert.deepEqual(words, [
      '-i',
      '-X',
      'POST',
      '-H',
      `authorization: Bearer ${FULL}`,
      '-H',
      `x-note: ${hostile}`,
      '--data-raw',
      body,
      url,
    ]);
  });

  test('a secret inside the body is spliced in as its variable', () => {
    const body = JSON.stringify({ note: `key ${READ} here` });
    const words = shellWords(curlRepro(exchange({}, body)), ENV);
    assert.ok(words.includes(body), words.join(' | '));
  });
});

/** An exchange of a test, answered. */
function sent(
  method: string,
  url: string,
  status: number,
  json?: unknown,
  o: { key?: string; body?: unknown } = {},
): Exchange {
  return {
    request: {
      method,
      url,
      headers: { authorization: `Bearer ${o.key ?? FULL}` },
      ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    },
    response: { status, headers: {}, bodyText: JSON.stringify(json ?? null), json },
    durationMs: 1,
  };
}

/**
 * Runs a multi-line repro with `curl` a shell function: it records each call's words and
 * answers `answer` (what the deployment would), so the variables a repro catches can be seen.
 */
function runWithFakeCurl(repro: string, answer: string, env: Record<string, string>): string[][] {
  const script = `curl() { printf '%s\\0' "$@" >> "$CALLS"; printf '\\1' >> "$CALLS"; printf '%s' '${answer}'; }\n${repro}`;
  const calls = execFileSync(
    'sh',
    [
      '-c',
      `CALLS=$(mktemp); export CALLS; ${script.replace(/'/g, "'")} >/dev/null; cat "$CALLS"; rm -f "$CALLS"`,
    ],
    { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' },
  );
  return calls
    .split('\u0001')
    .slice(0, -1)
    .map((c) => c.split('\0').slice(0, -1));
}

describe('a repro replays the way to its request', () => {
  const base = 'http://127.0.0.1:9';
  const created = sent(
    'POST',
    `${base}/v1/tickets`,
    201,
    { id: 'tkt_run000001', status: 'open' },
    {
      body: { subject: 's' },
    },
  );
  const foreignPatch = sent(
    'PATCH',
    `${base}/v1/tickets/tkt_run000001`,
    404,
    { status: 404 },
    {
      key: OTHER,
      body: { subject: 'taken over' },
    },
  );
  const unrelatedRead = sent('GET', `${base}/v1/reports/summary`, 200, { total: 1 });
  const after = sent('GET', `${base}/v1/tickets/tkt_run000001`, 200, { id: 'tkt_run000001' });
  const history = [created, unrelatedRead, foreignPatch, after];

  test('the objects it names are created first, their ids caught in variables', () => {
    const repro = curlRepro(after, history);
    const lines = repro.split('\n');
    assert.equal(lines.length, 3, repro);
    assert.match(
      lines[0]!,
      /^TICKET=\$\(curl -s -X POST .* \| node -p 'JSON\.parse\(require\("fs"\)\.readFileSync\(0, "utf8"\)\)\.id'\)$/,
    );
    // The refused write on the same ticket is replayed too (a refusal may still have written).
    assert.match(lines[1]!, /^curl -s -o \/dev\/null -X PATCH .*\/v1\/tickets\/'"\$TICKET"$/);
    assert.match(lines[2]!, /^curl -i -X GET .*\/v1\/tickets\/'"\$TICKET"$/);
    assert.equal(repro.includes('tkt_run000001'), false, "the run's id is never sent back");
    assert.equal(repro.includes('/reports/summary'), false, 'a read it does not need is left out');
    // Run: the id the replay's own creation answers is the one the next requests send.
    const calls = runWithFakeCurl(repro, '{"id":"tkt_replay0001"}', ENV);
    assert.equal(calls.length, 3);
    assert.deepEqual(calls[2]!.slice(-1), [`${base}/v1/tickets/tkt_replay0001`]);
    assert.ok(calls[1]!.includes(`authorization: Bearer ${OTHER}`), calls[1]!.join(' | '));
  });

  test('the first request of a test, or one the history does not hold, is the request alone', () => {
    assert.match(curlRepro(created, history), /^curl -i -X POST /);
    assert.equal(curlRepro(after).split('\n').length, 1);
  });

  test('a value from a list answer is picked from the replayed list', () => {
    const macros = sent('GET', `${base}/v1/macros`, 200, {
      data: [{ id: 'mac_seed01' }, { id: 'mac_seed02' }],
    });
    const apply = sent(
      'POST',
      `${base}/v1/macros/mac_seed02/apply`,
      200,
      {},
      {
        body: { ticket_id: 'tkt_run000001' },
      },
    );
    const repro = curlRepro(apply, [created, macros, apply]);
    assert.match(repro, /^TICKET=.*\.id'\)$/m);
    assert.match(repro, /^MACRO=\$\(curl -s -X GET .*\.data\[1\]\.id'\)$/m);
    assert.match(repro, /\/v1\/macros\/'"\$MACRO"'\/apply'$/m);
    assert.match(repro, /--data-raw '\{"ticket_id":"'"\$TICKET"'"\}'/);
  });

  test('a way too long to paste is left out, and the repro says so', () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      sent('POST', `${base}/v1/tickets`, 201, { id: `tkt_many${String(i).padStart(4, '0')}` }),
    );
    const list = sent('GET', `${base}/v1/tickets?limit=100`, 200, { data: [] });
    const repro = curlRepro(list, [...many, list]);
    assert.match(repro, /^# the request alone: the test's way to it is more than 20 requests/);
    assert.equal(repro.split('\n').length, 2);
  });

  test('an embedded deployment’s URL is $HARNESS_BASE_URL; a key the run did not keep is said', () => {
    nameInRepros('http://127.0.0.1:7777', 'HARNESS_BASE_URL');
    const repro = curlRepro(sent('GET', 'http://127.0.0.1:7777/v1/tickets?limit=1', 200, {}));
    assert.match(repro, /"\$HARNESS_BASE_URL"'\/v1\/tickets\?limit=1'$/);
    const words = shellWords(repro, { ...ENV, HARNESS_BASE_URL: 'http://127.0.0.1:8787' });
    assert.equal(words.at(-1), 'http://127.0.0.1:8787/v1/tickets?limit=1');
    const masked = curlRepro(sent('GET', `${base}/v1/tickets`, 401, {}, { key: UNNAMED }));
    assert.match(masked, /^# sent with a key the run issued and did not keep/);
  });
});
