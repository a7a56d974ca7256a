/**
 * The API client of the contract suite: a thin typed layer over Playwright's APIRequestContext
 * that records every exchange (for the every-exchange checks, the repro and the snapshot) and
 * turns transport failures into data instead of exceptions (a dead target yields verdicts).
 * Every request is paced by the key's rate budget (rate-budget.ts); a 429 the budget waited out
 * is not recorded (it is the harness's own doing, not the behaviour under test).
 */
import type { APIRequestContext } from '@playwright/test';
import type { paths } from '../../spec/generated/api.d.ts';
import type { Exchange } from '../checks/types.ts';
import { matchOperation } from '../spec/operations.ts';
import { rateBudget } from './rate-budget.ts';

type Method = 'get' | 'post' | 'patch' | 'delete';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<C> = C extends { content: { 'application/json': infer J } } ? J : never;
type BodyOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { requestBody: infer R }
    ? JsonOf<R>
    : Op<P, M> extends { requestBody?: infer R }
      ? JsonOf<NonNullable<R>>
      : never;
type QueryOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends {
    parameters: { query?: infer Q };
  }
    ? Q
    : never;
type PathParamsOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends {
    parameters: { path: infer PP };
  }
    ? PP
    : never;
type SuccessOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201>]> : never;

/** A recorded exchange whose `json` is typed as the operation's success body (unchecked!). */
export type TypedExchange<T> = Exchange & { json: T | undefined; status: number | undefined };

export interface SendOptions {
  /** Bearer key; `null` sends no Authorization header. Default: the client's key. */
  key?: string | null;
  /** JSON body (serialised), or a raw string/Buffer sent as is. */
  body?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /**
   * Pace by the key's rate budget and wait out a 429 (default true). False sends once, as is:
   * for a test that provokes a 429 and must see it.
   */
  pace?: boolean;
}

export interface ClientOptions {
  timeoutMs: number;
  /** `performance.now()` after which no rate-limit wait may end. */
  deadline?: number;
  /** Told of each rate-limit wait before it starts (the test extends its time limit by it). */
  onRateWait?: (ms: number) => void;
  /**
   * Called when a 429 could not be waited out (the reason says so); may throw to end the test
   * as inconclusive. Without it, or when it returns, the 429 is recorded and returned.
   */
  onBudgetSpent?: (reason: string) => void;
}

export type Recorder = (ex: Exchange) => void;

/** Largest response body read into memory (announced Content-Length). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export class ApiClient {
  constructor(
    private readonly request: APIRequestContext,
    readonly baseUrl: string,
    private readonly key: string | undefined,
    private readonly record: Recorder,
    private readonly opts: ClientOptions = { timeoutMs: 10_000 },
  ) {}

  /** A client for the same target with another key (another workspace, a read-only key…). */
  withKey(key: string | undefined): ApiClient {
    return new ApiClient(this.request, this.baseUrl, key, this.record, this.opts);
  }

  /** Typed call of a spec operation. Path params are substituted into the template. */
  async call<P extends keyof paths, M extends Method>(
    method: M,
    path: P,
    init: {
      params?: PathParamsOf<P, M>;
      query?: QueryOf<P, M>;
      body?: BodyOf<P, M>;
    } & Omit<SendOptions, 'body' | 'query'> = {},
  ): Promise<TypedExchange<SuccessOf<P, M>>> {
    let url = String(path);
    for (const [k, v] of Object.entries((init.params ?? {}) as Record<string, string>)) {
      url = url.replace(`{${k}}`, encodeURIComponent(v));
    }
    const { params: _p, ...rest } = init;
    return this.send(method.toUpperCase(), url, rest as SendOptions) as Promise<
      TypedExchange<SuccessOf<P, M>>
    >;
  }

  /** Untyped request (invalid bodies, unknown routes, raw bytes). Never throws on HTTP or transport errors. */
  async send(method: string, path: string, o: SendOptions = {}): Promise<TypedExchange<any>> {
    const key = o.key === undefined ? this.key : o.key;
    const budget = rateBudget(this.baseUrl, key ? `Bearer ${key}` : undefined);
    const paced = await budget.send(
      () => this.once(method, path, o),
      (ex) => ({ status: ex.response?.status, headers: ex.response?.headers }),
      { pace: o.pace !== false, deadline: this.opts.deadline, onWait: this.opts.onRateWait },
    );
    if (paced.exhausted) this.opts.onBudgetSpent?.(paced.exhausted);
    this.record(paced.result);
    return paced.result;
  }

  private async once(method: string, path: string, o: SendOptions): Promise<TypedExchange<any>> {
    const url = new URL(path.startsWith('http') ? path : `${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(o.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      ...o.headers,
    };
    const key = o.key === undefined ? this.key : o.key;
    if (key !== null && key !== undefined) headers.authorization = `Bearer ${key}`;
    let data: string | Buffer | undefined;
    // A string would be re-encoded by Playwright as a JSON string when the content type is JSON:
    // raw bodies (malformed JSON above all) must reach the wire byte for byte.
    if (o.raw !== undefined) data = typeof o.raw === 'string' ? Buffer.from(o.raw, 'utf8') : o.raw;
    else if (o.body !== undefined) data = JSON.stringify(o.body);
    if (
      data !== undefined &&
      !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')
    ) {
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    const ex: Exchange = {
      sentAt: started,
      request: {
        method,
        url: url.toString(),
        headers,
        body:
          typeof o.raw === 'string'
            ? o.raw
            : data === undefined
              ? undefined
              : Buffer.isBuffer(data)
                ? `<${data.length} bytes>`
                : data,
      },
      durationMs: 0,
      operation: matchOperation(method, url.pathname),
    };
    try {
      const res = await this.request.fetch(url.toString(), {
        method,
        headers,
        data,
        timeout: this.opts.timeoutMs,
        failOnStatusCode: false,
        maxRedirects: 0,
      });
      // A body announced as larger than any answer of this API is not read into memory: the
      // checks see an empty, non-JSON body and say so.
      const announced = Number(res.headers()['content-length'] ?? 0);
      const tooBig = announced > MAX_BODY_BYTES;
      if (tooBig) await res.dispose();
      const bodyText = tooBig ? '' : (await res.body()).toString('utf8');
      let json: unknown;
      try {
        json = bodyText.length > 0 ? JSON.parse(bodyText) : undefined;
      } catch {
        json = undefined;
      }
      ex.response = { status: res.status(), headers: res.headers(), bodyText, json };
    } catch (e) {
      ex.error = (e as Error).message.split('\n')[0];
    }
    ex.answeredAt = performance.now();
    ex.durationMs = ex.answeredAt - started;
    return Object.assign(ex, { json: ex.response?.json, status: ex.response?.status });
  }
}
