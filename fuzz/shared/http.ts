/**
 * The API client of the delivery check and the API input fuzz: the one client
 * (core/http/client.ts) over the fuzzers' wire transport (wire.ts, one keep-alive pool per run):
 * raw bodies (so malformed JSON can be sent), every exchange kept as data for transcripts, and
 * every request paced by the key's rate budget — a 429 is waited out (bounded) so a rate limit is
 * never mistaken for the behaviour under test, and once the budget is spent `send` throws
 * RateBudgetExhausted, for this request and every later one, so the fuzzer reports the run as
 * inconclusive instead of judging answers it did not get.
 */
import {
  type Answer,
  createClient,
  type HttpClient,
  throwWhenSpent,
} from '../../core/http/client.ts';
import { RateBudgetExhausted } from '../../core/http/rate-budget.ts';
import { wireTransport } from './wire.ts';

export { RateBudgetExhausted };
export type { Answer, HttpClient as Http };

/** A client of `baseUrl`; its requests carry exactly the headers they are given. */
export function createHttp(o: { baseUrl: string; timeoutMs?: number }): HttpClient {
  const timeoutMs = o.timeoutMs ?? 10_000;
  return createClient({
    baseUrl: o.baseUrl,
    transport: wireTransport(new URL(o.baseUrl), timeoutMs),
    timeoutMs,
    onBudgetSpent: throwWhenSpent,
  });
}
