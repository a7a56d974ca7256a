/**
 * The typed API client of the contract suite: the operations of spec/generated/api.d.ts over
 * the one client (client.ts), which records every exchange (for the every-exchange checks, the
 * repro and the snapshot), turns transport failures into data and paces every request by the
 * key's rate budget (a 429 the budget waited out is not recorded: it is the harness's own
 * doing, not the behaviour under test).
 */
import type { paths } from '../../spec/generated/api.d.ts';
import type { Exchange } from '../checks/types.ts';
import type { HttpClient, SendOptions } from './client.ts';

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

export class ApiClient {
  constructor(private readonly http: HttpClient) {}

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** A client for the same target with another key (another workspace, a read-only key…). */
  withKey(key: string | undefined): ApiClient {
    return new ApiClient(this.http.withKey(key));
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
  send(method: string, path: string, o: SendOptions = {}): Promise<TypedExchange<any>> {
    return this.http.send(method, path, o) as Promise<TypedExchange<any>>;
  }
}
