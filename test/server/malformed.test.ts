/**
 * Malformed and odd requests, sent byte for byte over a real socket (some never reach Fastify,
 * so `inject` cannot show them): each must get its 4xx as problem+json with the three
 * X-RateLimit headers — never a 5xx, never a handler reached without authentication.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type RunningService, startService } from '../../server/start.ts';
import { validate } from '../../src/schemas/registry.ts';

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as is and reads until the server closes (every row asks Connection: close). */
function raw(port: number, request: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      // Skip interim 1xx answers (100 Continue): the final answer is what counts.
      const final = text.replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
      const end = final.indexOf('\r\n\r\n');
      const head = end < 0 ? final : final.slice(0, end);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      resolve({ status, headers, body: end < 0 ? '' : final.slice(end + 4) });
    });
    socket.write(request);
  });
}

let svc: RunningService;
let port = 0;
before(async () => {
  svc = await startService({});
  port = Number(new URL(svc.baseUrl).port);
});
after(() => svc.close());

const key = () => svc.credentials.workspaces.team.keys.full;
const req = (line: string, headers: string[] = [], body = '') =>
  `${line}\r\n${['Host: 127.0.0.1', ...headers, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`;
const auth = () => `Authorization: Bearer ${key()}`;

interface Row {
  name: string;
  request: () => string;
  status: number;
  /** Default true: an error answer is problem+json. */
  problem?: boolean;
}

const ROWS: Row[] = [
  // The guard must follow the router, which decodes the path and accepts absolute-form targets.
  {
    name: 'percent-encoded /v1 without a key',
    request: () => req('GET /%76%31/tickets HTTP/1.1'),
    status: 401,
  },
  {
    name: 'percent-encoded /v1 with a key',
    request: () => req('GET /%76%31/tickets HTTP/1.1', [auth()]),
    status: 200,
    problem: false,
  },
  {
    name: 'absolute-form target without a key',
    request: () => req('GET http://127.0.0.1/v1/tickets HTTP/1.1'),
    status: 401,
  },
  {
    name: 'absolute-form target with a key',
    request: () => req('GET http://127.0.0.1/v1/tickets HTTP/1.1', [auth()]),
    status: 200,
    problem: false,
  },
  {
    name: 'unknown path under /admin',
    request: () => req('GET /admin/nope HTTP/1.1'),
    status: 404,
  },
];

describe('malformed and odd requests get a 4xx problem with the rate-limit headers', () => {
  for (const row of ROWS) {
    test(row.name, async () => {
      const r = await raw(port, row.request());
      const seen = `${r.status} ${JSON.stringify(r.headers)} ${r.body.slice(0, 300)}`;
      assert.equal(r.status, row.status, seen);
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        assert.match(r.headers[h] ?? '', /^\d+$/, `${h} missing: ${seen}`);
      }
      if (row.problem === false) return;
      assert.match(r.headers['content-type'] ?? '', /^application\/problem\+json/, seen);
      const body = JSON.parse(r.body) as { status: number };
      assert.deepEqual(validate('Problem', body), [], seen);
      assert.equal(body.status, r.status, seen);
    });
  }
});
