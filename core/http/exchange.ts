/**
 * The one recorded HTTP exchange of the harness: what every client records (core/http/client.ts,
 * over any transport), the checks judge, the repro and the snapshot are made from.
 */
import type { OperationSpec } from '../spec/operations.ts';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Request body as sent (text), if any. */
  body?: string;
  /**
   * The request target as sent when it was not `url`'s origin form (the absolute form, an
   * undici transport option): what a repro sends with curl's --request-target.
   */
  requestTarget?: string;
}

export interface RecordedResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  bodyText: string;
  /** Parsed body when it was JSON. */
  json?: unknown;
}

export interface Exchange {
  request: RecordedRequest;
  /** Absent when no response arrived (connection refused, timeout, TLS error). */
  response?: RecordedResponse;
  /** Transport error text when no response arrived. */
  error?: string;
  durationMs: number;
  operation?: OperationSpec;
  /**
   * `performance.now()` of the sending process when the request left and the answer arrived:
   * which exchanges of one process came strictly one after another (the rate-limit sequence
   * checks). Comparable only within one process.
   */
  sentAt?: number;
  answeredAt?: number;
  /** 429s the client waited out before this answer (the key's rate budget, rate-budget.ts). */
  rateLimitedRetries?: number;
  /**
   * The repro to report instead of a curl of `request`: a webhook delivery's, which signs in the
   * shell with the endpoint's secret variable (core/webhooks/delivery-repro.ts).
   */
  repro?: string;
}
