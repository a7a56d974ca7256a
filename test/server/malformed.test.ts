/**
 * Malformed and odd requests, sent byte for byte over a real socket (some never reach Fastify,
 * so `inject` cannot show them): each must get its 4xx as problem+json with the three
 * X-RateLimit headers — never a 5xx, never a handler reached without authentication.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type RunningService, startService } from '../../server/start.ts';
import { validate } from '../../core/schemas/registry.ts';

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
  // Answered by Node or the router before any route: Fastify's own JSON, no headers, before.
  {
    name: 'path that does not percent-decode',
    request: () => req('GET /v1/tickets/%E0%A4%A HTTP/1.1', [auth()]),
    status: 400,
  },
  {
    name: 'ticket id longer than the router allows by default',
    request: () => req(`GET /v1/tickets/${'a'.repeat(5000)} HTTP/1.1`, [auth()]),
    status: 404,
  },
  {
    name: 'request line over 16 KiB (huge query string)',
    request: () => req(`GET /v1/tickets?q=${'a'.repeat(20_000)} HTTP/1.1`, [auth()]),
    status: 431,
  },
  {
    name: 'header line without a colon',
    request: () => req('GET /v1/tickets HTTP/1.1', [auth(), 'Bad Header']),
    status: 400,
  },
  {
    name: 'non-numeric Content-Length',
    request: () =>
      req('POST /v1/tickets HTTP/1.1', [
        auth(),
        'Content-Type: application/json',
        'Content-Length: abc',
      ]),
    status: 400,
  },
  {
    name: 'invalid chunk size',
    request: () =>
      req(
        'POST /v1/tickets HTTP/1.1',
        [auth(), 'Content-Type: application/json', 'Transfer-Encoding: chunked'],
        'zz\r\n{}\r\n0\r\n\r\n',
      ),
    status: 400,
  },
  {
    name: 'HTTP/1.1 without Host',
    request: () => `GET /v1/tickets HTTP/1.1\r\n${auth()}\r\nConnection: close\r\n\r\n`,
    status: 400,
  },
  {
    name: 'Expect other than 100-continue',
    request: () => req('GET /v1/tickets HTTP/1.1', [auth(), 'Expect: teapot']),
    status: 417,
  },
  // Reached the routes already; listed so they stay 4xx.
  {
    name: 'query that does not percent-decode',
    request: () => req('GET /v1/tickets?status=%E0%A4%A HTTP/1.1', [auth()]),
    status: 422,
  },
  {
    name: 'repeated limit',
    request: () => req('GET /v1/tickets?limit=1&limit=2 HTTP/1.1', [auth()]),
    status: 422,
  },
  {
    name: 'repeated status',
    request: () => req('GET /v1/tickets?status=open&status=closed HTTP/1.1', [auth()]),
    status: 422,
  },
  {
    name: 'percent-encoded NUL as ticket id',
    request: () => req('GET /v1/tickets/%00 HTTP/1.1', [auth()]),
    status: 404,
  },
  {
    name: 'HEAD of a list',
    request: () => req('HEAD /v1/tickets HTTP/1.1', [auth()]),
    status: 200,
    problem: false,
  },
  { name: 'OPTIONS', request: () => req('OPTIONS /v1/tickets HTTP/1.1', [auth()]), status: 404 },
  { name: 'OPTIONS *', request: () => req('OPTIONS * HTTP/1.1', [auth()]), status: 404 },
  {
    name: 'unknown method',
    request: () => req('PROPFIND /v1/tickets HTTP/1.1', [auth()]),
    status: 404,
  },
  {
    name: 'malformed JSON body on a GET is ignored',
    request: () =>
      req(
        'GET /v1/tickets HTTP/1.1',
        [auth(), 'Content-Type: application/json', 'Content-Length: 5'],
        '{bad}',
      ),
    status: 200,
    problem: false,
  },
  {
    name: 'JSON null as creation body',
    request: () =>
      req(
        'POST /v1/tickets HTTP/1.1',
        [auth(), 'Content-Type: application/json', 'Content-Length: 4'],
        'null',
      ),
    status: 422,
  },
  {
    name: '__proto__ key in a JSON body',
    request: () => {
      const body = '{"__proto__":{"subject":"x"}}';
      return req(
        'POST /v1/tickets HTTP/1.1',
        [auth(), 'Content-Type: application/json', `Content-Length: ${body.length}`],
        body,
      );
    },
    status: 400,
  },
  {
    name: 'deeply nested JSON',
    request: () => {
      const body = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      return req(
        'POST /v1/tickets HTTP/1.1',
        [auth(), 'Content-Type: application/json', `Content-Length: ${body.length}`],
        body,
      );
    },
    status: 422,
  },
  {
    name: 'Content-Type that does not parse',
    request: () =>
      req('POST /v1/tickets HTTP/1.1', [auth(), 'Content-Type: ;;;', 'Content-Length: 2'], '{}'),
    status: 415,
  },
  {
    name: 'body without Content-Type',
    request: () => req('POST /v1/tickets HTTP/1.1', [auth(), 'Content-Length: 2'], '{}'),
    status: 415,
  },
  {
    name: 'form-encoded body',
    request: () =>
      req(
        'POST /v1/tickets HTTP/1.1',
        [auth(), 'Content-Type: application/x-www-form-urlencoded', 'Content-Length: 3'],
        'a=b',
      ),
    status: 415,
  },
  {
    name: 'Content-Length over 1 MiB (answered before the body)',
    request: () =>
      req('POST /v1/tickets HTTP/1.1', [
        auth(),
        'Content-Type: application/json',
        'Content-Length: 2000000',
      ]),
    status: 413,
  },
  {
    name: 'Basic credentials',
    request: () => req('GET /v1/tickets HTTP/1.1', ['Authorization: Basic Zm9vOmJhcg==']),
    status: 401,
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
