/**
 * Webhook receivers written the way real teams write them, each a small program of its own (run
 * as a separate process by spawn-receiver.ts), reading its secret from WEBHOOK_SECRET and
 * printing `listening on <port>`. The first three verify correctly by the service docs (issue 18's
 * table) and differ only in hardening the docs do not ask for; the last one re-serialises the
 * JSON before hashing, which the docs' raw-body rule forbids.
 */

/** Where a package resolves from this repository, for a program written to a temp directory. */
const from = (pkg: string) => import.meta.resolve(pkg);

const LISTEN = `
server.listen(0, '127.0.0.1', () => {
  console.log('listening on ' + server.address().port);
});`;

export interface RealWorldReceiver {
  name: string;
  /** The header form(s) it verifies, as `--form`. */
  form: 'prefixed' | 'plain' | 'both';
  /** The program (an ES module). */
  source: () => string;
}

/** node:http + @octokit/webhooks-methods `verify(secret, raw.toString(), sig)`, prefixed form. */
export const OCTOKIT: RealWorldReceiver = {
  name: 'node:http + @octokit/webhooks-methods verify(secret, raw.toString(), signature)',
  form: 'prefixed',
  source: () => `
import { createServer } from 'node:http';
import { verify } from '${from('@octokit/webhooks-methods')}';
const secret = process.env.WEBHOOK_SECRET;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const raw = Buffer.concat(chunks);
    const signature = req.headers['x-service-signature'];
    let ok = false;
    try {
      ok = typeof signature === 'string' && (await verify(secret, raw.toString(), signature));
    } catch {
      ok = false;
    }
    if (!ok) {
      res.writeHead(401);
      res.end();
      return;
    }
    res.writeHead(204);
    res.end();
  });
});
${LISTEN}
`,
};

/** createHmac + timingSafeEqual over the raw bytes, plain form, `writeHead(401); end()`. */
export const CREATE_HMAC: RealWorldReceiver = {
  name: 'node:http + createHmac/timingSafeEqual over the raw bytes, plain form',
  form: 'plain',
  source: () => `
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
const secret = process.env.WEBHOOK_SECRET;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'));
    const given = Buffer.from(String(req.headers['service-signature'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"received":true}');
  });
});
${LISTEN}
`,
};

/** Express with express.raw({ type: 'application/json' }), either header form. */
export const EXPRESS_RAW: RealWorldReceiver = {
  name: "Express + express.raw({ type: 'application/json' }), either form",
  form: 'both',
  source: () => `
import { createHmac, timingSafeEqual } from 'node:crypto';
import express from '${from('express')}';
const secret = process.env.WEBHOOK_SECRET;
const app = express();
app.post('/webhook', express.raw({ type: 'application/json' }), (req, res) => {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const hex = createHmac('sha256', secret).update(raw).digest('hex');
  const prefixed = req.get('x-service-signature');
  const given = prefixed ?? req.get('service-signature') ?? '';
  const expected = Buffer.from(prefixed !== undefined ? 'sha256=' + hex : hex);
  const got = Buffer.from(given);
  if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
    return res.status(401).end();
  }
  res.status(204).end();
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log('listening on ' + server.address().port);
});
`,
};

/** Express with express.json() verifying JSON.stringify(req.body): wrong by the docs. */
export const EXPRESS_JSON: RealWorldReceiver = {
  name: 'Express + express.json(), verifying JSON.stringify(req.body)',
  form: 'prefixed',
  source: () => `
import { createHmac } from 'node:crypto';
import express from '${from('express')}';
const secret = process.env.WEBHOOK_SECRET;
const app = express();
app.post('/webhook', express.json(), (req, res) => {
  const expected = 'sha256=' + createHmac('sha256', secret).update(JSON.stringify(req.body)).digest('hex');
  if (req.get('x-service-signature') !== expected) return res.status(401).end();
  res.status(204).end();
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log('listening on ' + server.address().port);
});
`,
};
