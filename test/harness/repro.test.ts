/**
 * A curl repro runs as pasted into a POSIX shell: the words `sh` makes of it are exactly the
 * request that was sent, with each key read from the variable that holds it. The repro's
 * `curl` is swapped for a printer of its arguments, so no request is sent here (the replay of
 * real repros against a deployment is in repro-replay.test.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { curlRepro } from '../../core/checks/repro.ts';
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
