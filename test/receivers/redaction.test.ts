/**
 * No signature material in any output: a careless receiver (its own process) that accepts
 * uppercase hex and a missing prefix, and answers every refusal with the signature it expected
 * (HMAC-SHA256 and HMAC-SHA1, in its body and in a header), is fuzzed by `harness fuzz receiver`
 * (another process). Its stdout, stderr and JSON file, and the run reports written from the
 * result (summary.json, junit.xml, index.html), hold no hex string that is — or is a cut of — an
 * HMAC-SHA256 or HMAC-SHA1 under the secret of any body the receiver was sent.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { receiverFailures } from '../../fuzz/receiver/failures.ts';
import type { ReceiverFuzzResult } from '../../fuzz/receiver/run-receiver-fuzz.ts';
import { loadConfig } from '../../core/config.ts';
import { writeReports } from '../../run/write-reports.ts';
import { fuzzReceiverCli } from '../harness/fuzz-receiver-cli.ts';
import { spawnReceiver } from './spawn-receiver.ts';

const secret = 'whsec_careless-redaction-41f0';

/** Records every body it gets (hex, one a line) and leaks what it expected on every refusal. */
const careless = (bodiesFile: string) => `
import { appendFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
const secret = process.env.WEBHOOK_SECRET;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    appendFileSync(${JSON.stringify(bodiesFile)}, raw.toString('hex') + '\\n');
    const hex = createHmac('sha256', secret).update(raw).digest('hex');
    const given = String(req.headers['x-service-signature'] ?? req.headers['service-signature'] ?? '');
    if (given.replace(/^sha256=/i, '').toLowerCase() === hex) {
      res.writeHead(204);
      res.end();
      return;
    }
    const sha1 = createHmac('sha1', secret).update(raw).digest('hex');
    const body = JSON.stringify({ error: 'bad signature', expected: 'sha256=' + hex, got: given, sha1, cut: hex.slice(0, 20) });
    res.writeHead(401, { 'Content-Type': 'application/json', 'X-Expected-Signature': 'sha256=' + hex });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

/** Every HMAC-SHA256 and HMAC-SHA1 hex digest under the secret of the bodies in `file`. */
function digestsOf(file: string): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '' && out.size > 0) continue;
    const body = Buffer.from(line, 'hex');
    out.add(createHmac('sha256', secret).update(body).digest('hex'));
    out.add(createHmac('sha1', secret).update(body).digest('hex'));
  }
  return out;
}

/** Hex runs of 16 digits or more that are a digest, or a cut of one. */
function signatureMaterial(text: string, digests: Set<string>): string[] {
  const all = [...digests];
  return (text.match(/[0-9a-fA-F]{16,}/g) ?? []).filter((run) => {
    const r = run.toLowerCase();
    return all.some((d) => d.includes(r) || r.includes(d));
  });
}

test('no output of a fuzz run holds a value computed with the secret', {
  timeout: 300_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'redaction-'));
  const bodies = join(dir, 'bodies.hex');
  const json = join(dir, 'result.json');
  const receiver = await spawnReceiver(careless(bodies), secret);
  let run: Awaited<ReturnType<typeof fuzzReceiverCli>>;
  try {
    run = await fuzzReceiverCli(
      [
        '--url',
        receiver.url,
        '--secret-env',
        'HOOK_SECRET',
        '--cases',
        '20',
        '--rate',
        '2000',
        '--seed',
        '3',
        '--json',
        json,
      ],
      secret,
    );
  } finally {
    await receiver.stop();
  }
  assert.equal(run.code, 1, `the careless receiver fails:\n${run.out}\n${run.err}`);
  const result = JSON.parse(readFileSync(json, 'utf8')) as ReceiverFuzzResult;

  // The run's reports, written from that result as the fuzz area files it.
  const failures = receiverFailures(result);
  const out = join(dir, 'latest');
  mkdirSync(out);
  const cfg = loadConfig({ PATH: process.env.PATH });
  writeReports({
    out,
    runId: 'redaction',
    started: Date.now(),
    cfg,
    areas: {
      fuzz: {
        verdict: 'fail',
        headline: 'receiver fuzz of a careless receiver',
        documentedFailures: failures.filter((f) => f.provenance === 'documented'),
        assumptionMismatches: failures.filter((f) => f.provenance === 'assumed'),
        notRun: [],
        details: { receiver: result },
      },
    },
    tests: [],
    limits: [],
  });
  const reports = readdirSync(out)
    .filter((f) => /\.(json|xml|html)$/.test(f))
    .map((f) => [f, readFileSync(join(out, f), 'utf8')] as const);
  assert.ok(
    reports.some(([f]) => f === 'summary.json') && reports.some(([f]) => f === 'junit.xml'),
  );

  const digests = digestsOf(bodies);
  assert.ok(digests.size > 100, `the receiver was sent many bodies (${digests.size / 2})`);
  const outputs: Array<readonly [string, string]> = [
    ['stdout', run.out],
    ['stderr', run.err],
    ['--json file', readFileSync(json, 'utf8')],
    ...reports,
  ];
  for (const [name, text] of outputs)
    assert.deepEqual(signatureMaterial(text, digests), [], `signature material in ${name}`);
  // Not vacuous: the receiver's leaks reached the transcripts, masked.
  assert.match(run.out, /<HMAC signed with \$HOOK_SECRET>/);
  assert.match(run.out, /<valid HMAC-SHA256 of the body, signed with \$HOOK_SECRET>/);
  assert.match(run.out, /uppercase-hex-rejected/);
});
