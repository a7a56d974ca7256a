/**
 * The receiver fuzz's careless-body classes are in every run, not left to chance: with a single
 * case per property, one validly signed body of each class is still sent (whatever the seed), and
 * each zoo receiver that alters the body before hashing fails `careless-body-authenticates` (JSON
 * in UTF-8, documented) or `careless-invalid-body-authenticates` (BOM, NUL, invalid UTF-8:
 * bodies the service never sends, assumed).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';
import { CARELESS_BODY_CLASSES } from '../../fuzz/arbitraries/careless-body-arb.ts';
import { fuzzLocalReceiver } from '../../fuzz/receiver/local.ts';
import { ZOO } from './faulty-receivers.ts';

const secret = 'careless-secret-5b2e';
const PROPERTIES = ['careless-body-authenticates', 'careless-invalid-body-authenticates'];

/** How to recognise each class in the bytes a receiver got. */
const SEEN: Record<string, (b: Buffer) => boolean> = {
  'crlf-line-endings': (b) => b.includes('\r\n'),
  'lone-cr-line-endings': (b) => /\r(?!\n)/.test(b.toString('latin1')),
  'outer-whitespace': (b) => /^\s|\s$/.test(b.toString('latin1')),
  bom: (b) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf,
  nul: (b) => b.includes(0),
  'invalid-utf8': (b) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(b);
      return false;
    } catch {
      return true;
    }
  },
  'nfc-text': (b) => b.toString('utf8') !== b.toString('utf8').normalize('NFD'),
  'nfd-text': (b) => b.toString('utf8') !== b.toString('utf8').normalize('NFC'),
  'unicode-escapes': (b) => /\\u[0-9a-f]{4}/.test(b.toString('latin1')),
  'raw-characters': (b) => /[\u2028\u2029☃😀]/u.test(b.toString('utf8')),
  'key-order': (b) => b.toString('utf8').startsWith('{"ticket":'),
  'number-spellings': (b) =>
    /[,[](1\.0|1e2|2E\+1|-0|0\.10|1\.5e-3|100\.00)[,\]]/.test(b.toString()),
};

describe('careless-body classes', () => {
  test('every class has a recogniser here', () => {
    assert.deepEqual(Object.keys(SEEN).sort(), CARELESS_BODY_CLASSES.map((c) => c.name).sort());
  });

  for (const seed of [1, 20260101, 987654321]) {
    test(`one case per property still sends a body of every class (seed ${seed})`, async () => {
      const bodies: Buffer[] = [];
      const recorder = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          bodies.push(Buffer.concat(chunks));
          res.writeHead(204).end();
        });
      });
      const r = await fuzzLocalReceiver(recorder, {
        secret,
        cases: 1,
        seed,
        form: 'prefixed',
        only: PROPERTIES,
      });
      assert.equal(
        r.properties.reduce((n, p) => n + p.cases, 0),
        CARELESS_BODY_CLASSES.length,
      );
      const missing = CARELESS_BODY_CLASSES.filter((c) => !bodies.some((b) => SEEN[c.name]!(b)));
      assert.deepEqual(
        missing.map((c) => c.name),
        [],
      );
    });
  }

  for (const entry of ZOO.filter((z) => PROPERTIES.includes(z.caughtBy))) {
    test(`${entry.fault}: caught with one case per property`, async () => {
      const r = await fuzzLocalReceiver(entry.create(secret), {
        secret,
        cases: 1,
        only: [entry.caughtBy],
      });
      const failed = r.properties.filter((p) => !p.passed);
      assert.equal(failed.length, 2, 'fails in both header forms');
      assert.match(failed[0]!.counterexample ?? '', /body class: /);
      assert.match(failed[0]!.reason ?? '', /Received status 401/);
    });
  }
});
