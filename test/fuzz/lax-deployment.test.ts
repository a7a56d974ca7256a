/**
 * The API input fuzz on a deployment we did not start in-process: test/fuzz/lax-deployment.mjs,
 * run as its own process, validates only what the docs state — an update field of the wrong type
 * is ignored, there is no size limit — and already holds what a long-lived staging holds (a ticket
 * whose subject is one 1 MiB word, a requester carrying an array nested ten thousand deep, both in
 * every list answer the fuzz walks to count tickets). `harness fuzz api-input --url` (its own
 * process too, reaching the deployment only through its URL and a key variable) judges every
 * case: the accepted invalid bodies are warnings under their assumed rules (U20, U26), nothing is
 * documented-broken, nothing "could not run", and what it prints and writes stays bounded.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deepJsonText } from '../../fuzz/arbitraries/body-cases/deep-junk.ts';
import type { ApiInputFuzzResult } from '../../fuzz/api-input/api-input.ts';
import { runCaptured } from '../harness/run-captured.ts';

const here = dirname(fileURLToPath(import.meta.url));
const KEY = `lax_${'k'.repeat(24)}`;
const MiB = 1024 * 1024;

describe('api input fuzz against a lax, long-lived deployment in its own process', () => {
  let server: ChildProcess;
  let url: string;
  let code: number | null;
  let out: string;
  let result: ApiInputFuzzResult;

  before(async () => {
    // A larger stack than Node's default: it serves an array nested 10 000 deep, as a staging
    // written in another language would (JSON.stringify overflows the default stack at ~5 000).
    server = spawn(process.execPath, ['--stack-size=4000', join(here, 'lax-deployment.mjs')], {
      env: { PATH: process.env.PATH, LAX_KEY: KEY },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      let text = '';
      server.stdout!.on('data', (c: Buffer) => {
        text += c.toString();
        const m = /listening on (\d+)/.exec(text);
        if (m) resolve(Number(m[1]));
      });
      server.once('exit', (c) => reject(new Error(`lax deployment exited (${c})`)));
    });
    url = `http://127.0.0.1:${port}`;
    // What earlier runs and people left: a 1 MiB one-word subject, an array 10 000 levels deep.
    const seed = async (body: string) => {
      const r = await fetch(`${url}/v1/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body,
      });
      assert.equal(r.status, 201, await r.text());
    };
    await seed(JSON.stringify({ subject: 'x'.repeat(MiB), requester: { email: 'a@example.com' } }));
    await seed(
      `{"subject":"deep","requester":{"email":"b@example.com","notes":${deepJsonText(10_000, 'array')}}}`,
    );
    const json = join(mkdtempSync(join(tmpdir(), 'lax-fuzz-')), 'result.json');
    ({ code, out } = await runCaptured(
      [
        'bin/harness.mjs',
        'fuzz',
        'api-input',
        '--url',
        url,
        '--api-key-env',
        'LAX_TEST_KEY',
        '--cases',
        '40',
        '--max-seconds',
        '150',
        '--json',
        json,
      ],
      { PATH: process.env.PATH, LAX_TEST_KEY: KEY, FC_SEED: '23' },
      240_000,
    ));
    result = JSON.parse(readFileSync(json, 'utf8')) as ApiInputFuzzResult;
  });

  after(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
  });

  test('every case is judged: exit 0, no "could not run", no internal error', () => {
    assert.equal(code, 0, out.slice(-6000));
    assert.doesNotMatch(out, /could not run|harness error|internal error/);
    assert.equal(result.passed, true);
    assert.deepEqual(
      result.operations.map((o) => [o.operation, o.status]),
      [
        ['createTicket', 'passed'],
        ['updateTicket', 'passed'],
        ['addMessage', 'passed'],
        ['listTickets', 'passed'],
      ],
    );
    assert.equal(result.countedVia, 'list-walk');
    // Every input class reached it, the long-lived data it holds notwithstanding.
    for (const o of result.operations)
      assert.deepEqual(
        o.classes.filter((c) => c.cases === 0).map((c) => c.name),
        [],
        `${o.operation}: classes never sent`,
      );
  });

  test('invalid bodies it accepted are warnings under the assumed rules, not failures', () => {
    const update = result.operations.find((o) => o.operation === 'updateTicket')!;
    assert.ok(update.stats.schemaInvalid.accepted > 0, JSON.stringify(update.stats));
    const warned = new Set(result.operations.flatMap((o) => o.warnings.map((w) => w.broken.check)));
    assert.ok(warned.has('validation.status-422'), [...warned].join(', '));
    for (const o of result.operations)
      for (const w of o.warnings) assert.equal(w.broken.provenance, 'assumed', w.broken.check);
  });

  test('what it prints and writes is bounded, and the key never shows', () => {
    assert.ok(!out.includes(KEY), 'the API key was printed');
    assert.ok(!JSON.stringify(result).includes(KEY), 'the API key is in the result');
    // Transcripts show a prefix of a body, never a mebibyte of it.
    for (const o of result.operations)
      for (const w of o.warnings) assert.ok(w.counterexample.transcript.length < 20_000);
    assert.ok(out.length < 500_000, `printed ${out.length} characters`);
  });
});
