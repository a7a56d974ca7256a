/**
 * The small API client of the delivery check and the API input fuzz, over the fuzzers' one HTTP
 * layer (`wire.ts`, one keep-alive pool per run): raw bodies (so malformed JSON can be sent),
 * every exchange kept as data for transcripts, and every request paced by the key's rate budget
 * (core/http/rate-budget.ts, shared with the contract suite's client): a 429 is waited out
 * (bounded) so a rate limit is never mistaken for the behaviour under test, and once the budget
 * is spent `send` throws RateBudgetExhausted — for this request and every later one, at once —
 * so the fuzzer reports the run as inconclusive instead of judging answers it did not get.
 */
import { RateBudgetExhausted, rateBudget } from '../../core/http/rate-budget.ts';
import { createClient } from './wire.ts';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path and query, e.g. `/v1/tickets?limit=100`. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as is; a string is sent as UTF-8. */
  body?: string | Buffer;
}

export interface HttpExchange {
  request: HttpRequest;
  /** `undefined` when no response came (see `error`). */
  status?: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body when it is JSON, else `undefined`. */
  json?: unknown;
  error?: string;
  /** 429s waited out before this answer. */
  rateLimitedRetries: number;
}

export { RateBudgetExhausted };

/** Options of {@link createHttp}. */
export interface HttpOptions {
  baseUrl: string;
  /** Per-request timeout. Default 10 000 ms. */
  timeoutMs?: number;
}

export interface Http {
  send(req: HttpRequest): Promise<HttpExchange>;
  /** Requests sent so far (429 retries included). */
  readonly sent: number;
  close(): Promise<void>;
}

function flatHeaders(raw: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of raw) {
    const k = name.toLowerCase();
    out[k] = k in out ? `${out[k]}, ${v}` : v;
  }
  return out;
}

function authorizationOf(req: HttpRequest): string | undefined {
  for (const [k, v] of Object.entries(req.headers ?? {}))
    if (k.toLowerCase() === 'authorization') return v;
  return undefined;
}

export function createHttp(options: HttpOptions): Http {
  const { timeoutMs = 10_000 } = options;
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const client = createClient(base, timeoutMs);
  let sent = 0;
  let spent: string | undefined;

  async function once(req: HttpRequest): Promise<Omit<HttpExchange, 'rateLimitedRetries'>> {
    sent++;
    const body = typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body;
    const outcome = await client.send(
      {
        method: req.method,
        headers: Object.entries(req.headers ?? {}),
        body: body ?? new Uint8Array(0),
        framing: { kind: 'content-length' },
        notes: [],
      },
      `${prefix}${req.path}`,
    );
    if ('error' in outcome) return { request: req, headers: {}, text: '', error: outcome.error };
    const text = outcome.response.body.toString('utf8');
    let json: unknown;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      request: req,
      status: outcome.response.status,
      headers: flatHeaders(outcome.response.headers),
      text,
      json,
    };
  }

  return {
    async send(req) {
      if (spent) throw new RateBudgetExhausted(spent);
      const budget = rateBudget(options.baseUrl, authorizationOf(req));
      const paced = await budget.send(
        () => once(req),
        (ex) => ex,
      );
      if (paced.exhausted) {
        spent = paced.exhausted;
        throw new RateBudgetExhausted(spent);
      }
      return { ...paced.result, rateLimitedRetries: paced.retried };
    },
    get sent() {
      return sent;
    },
    close: async () => client.close(),
  };
}
