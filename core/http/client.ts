/**
 * The one HTTP client of the harness for the API and the admin surface: it builds the request
 * (base URL, query, the key as a Bearer header, a body as JSON or raw bytes), paces it by the
 * key's rate budget (rate-budget.ts: a 429 is waited out, bounded, and a spent budget reported,
 * never judged), bounds it in time, and records what was sent and what came back as the one
 * `Exchange` (exchange.ts) — transport failures as data, never exceptions, so a dead target
 * yields verdicts. How the bytes travel is the transport's:
 *   - undici (undici-transport.ts): the admin client, the preflight, the suite's clean-up and
 *     retry probe;
 *   - Playwright's APIRequestContext (contracts/playwright-transport.ts): the contract suite,
 *     whose requests then show in Playwright's traces;
 *   - the fuzzers' wire client (fuzz/shared/wire.ts): raw bytes exactly as given.
 * The Node load driver keeps its own undici pool (load/plan-sender.ts): thousands of requests a
 * second on a schedule, recorded as samples, not exchanges.
 */
import { matchOperation, type OperationSpec } from '../spec/operations.ts';
import { noteCreated } from './created-ledger.ts';
import type { Exchange } from './exchange.ts';
import { RateBudgetExhausted, rateBudget } from './rate-budget.ts';
import { isInventedKey } from '../redact.ts';
import { tallyRead } from './read-tally.ts';

/** One request as a transport sends it: header names as given, in order. */
export interface TransportRequest {
  method: string;
  url: URL;
  headers: Array<[string, string]>;
  body?: Buffer;
  timeoutMs: number;
}

/** An answer (lower-case header names, repeated ones joined with ", "), or why there was none. */
export type TransportAnswer =
  | { status: number; headers: Record<string, string>; body: Buffer }
  | { error: string; thrown?: unknown };

export interface Transport {
  send(req: TransportRequest): Promise<TransportAnswer>;
  close?(): void | Promise<void>;
}

/** Largest response body a transport reads into memory (announced Content-Length). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface ClientOptions {
  baseUrl: string;
  transport: Transport;
  /** Bearer key of every request that names none. */
  key?: string;
  /** Per-request time limit. Default 10 000 ms. */
  timeoutMs?: number;
  /** Headers every request carries (the contract suite's `accept`). */
  headers?: Record<string, string>;
  /** Content-Type of a request with a body that names none (default: none added). */
  contentType?: string;
  /** Pace by the key's rate budget and wait out a 429. Default true. */
  pace?: boolean;
  /** `performance.now()` after which no rate-limit wait may end. */
  deadline?: number;
  /** Told of each rate-limit wait before it starts (a test extends its time limit by it). */
  onRateWait?: (ms: number) => void;
  /**
   * Called when a 429 could not be waited out, and before every later request once that
   * happened; may throw (a test ends as inconclusive, a fuzzer stops). When it returns, the
   * 429 is recorded and returned.
   */
  onBudgetSpent?: (reason: string) => void;
  /** Gets every exchange (the contract suite's checks and logs). */
  record?: (ex: Exchange) => void;
}

export interface SendOptions {
  /** Bearer key; `null` sends no Authorization header. Default: the client's key. */
  key?: string | null;
  /** JSON body (serialised), or a raw string/Buffer sent as is. */
  body?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /** False sends once, as is: a test that provokes a 429 must see it. Default: the client's. */
  pace?: boolean;
  /** `performance.now()` after which no rate-limit wait may end. Default: the client's. */
  deadline?: number;
  /** The spec operation, when the caller knows it (else matched from the URL). */
  operation?: OperationSpec;
}

/** A recorded exchange with its status and parsed body at hand. */
export type Answer = Exchange & { status: number | undefined; json: unknown };

export interface HttpClient {
  readonly baseUrl: string;
  send(method: string, path: string, o?: SendOptions): Promise<Answer>;
  /** The same client with another key (another workspace, a read-only key…). */
  withKey(key: string | undefined): HttpClient;
  /** Requests sent so far by this client and those made from it (429 retries included). */
  readonly sent: number;
  close(): Promise<void>;
}

export function createClient(options: ClientOptions): HttpClient {
  return clientWith(options, { sent: 0, spent: undefined });
}

function clientWith(
  o: ClientOptions,
  counter: { sent: number; spent: string | undefined },
): HttpClient {
  const timeoutMs = o.timeoutMs ?? 10_000;

  async function once(method: string, path: string, s: SendOptions): Promise<Answer> {
    const url = new URL(path.startsWith('http') ? path : `${o.baseUrl}${path}`);
    for (const [k, v] of Object.entries(s.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...o.headers, ...s.headers };
    const key = s.key === undefined ? o.key : s.key;
    if (key !== null && key !== undefined) headers.authorization = `Bearer ${key}`;
    let data: Buffer | undefined;
    if (s.raw !== undefined) data = typeof s.raw === 'string' ? Buffer.from(s.raw, 'utf8') : s.raw;
    else if (s.body !== undefined) data = Buffer.from(JSON.stringify(s.body), 'utf8');
    if (data !== undefined && o.contentType && !headerOf(headers, 'content-type'))
      headers['content-type'] = o.contentType;
    const started = performance.now();
    const ex: Exchange = {
      sentAt: started,
      request: {
        method,
        url: url.toString(),
        headers,
        body:
          typeof s.raw === 'string'
            ? s.raw
            : Buffer.isBuffer(s.raw)
              ? `<${s.raw.length} bytes>`
              : s.body === undefined
                ? undefined
                : JSON.stringify(s.body),
      },
      durationMs: 0,
      operation: s.operation ?? matchOperation(method, url.pathname),
    };
    counter.sent++;
    const a = await o.transport.send({
      method,
      url,
      headers: Object.entries(headers),
      ...(data === undefined ? {} : { body: data }),
      timeoutMs,
    });
    if ('error' in a) ex.error = a.error.split('\n')[0];
    else {
      const bodyText = a.body.toString('utf8');
      let json: unknown;
      try {
        json = bodyText.length > 0 ? JSON.parse(bodyText) : undefined;
      } catch {
        json = undefined;
      }
      ex.response = { status: a.status, headers: a.headers, bodyText, json };
      tallyRead(ex, a.body.length);
    }
    ex.answeredAt = performance.now();
    ex.durationMs = ex.answeredAt - started;
    return Object.assign(ex, { json: ex.response?.json, status: ex.response?.status });
  }

  return {
    baseUrl: o.baseUrl,
    async send(method, path, s = {}) {
      if (counter.spent) o.onBudgetSpent?.(counter.spent);
      const key = s.key === undefined ? o.key : s.key;
      const authorization = key
        ? `Bearer ${key}`
        : key === null
          ? undefined
          : headerOf(s.headers ?? {}, 'authorization');
      const anonymous = namesNoKey(authorization);
      const paced = await rateBudget(o.baseUrl, authorization).send(
        () => once(method, path, s),
        (ex) => ({ status: ex.response?.status, headers: ex.response?.headers }),
        {
          pace: (s.pace ?? o.pace) !== false,
          deadline: s.deadline ?? o.deadline,
          onWait: o.onRateWait,
          // One wait for a limiter that is only briefly in the way, then the answer is judged.
          ...(anonymous ? { maxRetries: 1 } : {}),
        },
      );
      if (paced.retried > 0) paced.result.rateLimitedRetries = paced.retried;
      // A request that names no workspace key spends no key's budget: a 429 it still gets is the
      // deployment's answer to an unauthenticated request, returned to the caller — not a spent
      // budget that would end the test as inconclusive and hide why. The rule matrix records such
      // a cell as kept from being checked by the target (contracts/matrix-sent.ts RATE_LIMITED):
      // its limiter answered, not authentication, and the run names the rules it kept unchecked.
      if (paced.exhausted && !anonymous) {
        counter.spent = paced.exhausted;
        o.onBudgetSpent?.(paced.exhausted);
      }
      // What the run leaves on the target, whoever sent it (core/target/clean-up.ts).
      noteCreated(o.baseUrl, paced.result);
      o.record?.(paced.result);
      return paced.result;
    },
    withKey: (key) => clientWith({ ...o, key }, counter),
    get sent() {
      return counter.sent;
    },
    close: async () => {
      await o.transport.close?.();
    },
  };
}

/**
 * Whether an Authorization value names no workspace key: none, another scheme (`Basic …`), a
 * `Bearer` without a token, or a key the harness invented to be refused (core/redact.ts).
 */
export function namesNoKey(authorization: string | undefined): boolean {
  const token = /^bearer[ \t]+(\S+)/i.exec(authorization ?? '')?.[1];
  return token === undefined || isInventedKey(token);
}

/** The value of header `name` (any case), if given. */
function headerOf(h: Record<string, string>, name: string): string | undefined {
  return Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
}

/** `onBudgetSpent` of a client whose caller cannot use an answer it did not get (the fuzzers). */
export const throwWhenSpent = (reason: string): never => {
  throw new RateBudgetExhausted(reason);
};
