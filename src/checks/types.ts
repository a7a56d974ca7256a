/** The vocabulary of checks: one recorded HTTP exchange, a check, and the Failure it returns. */
import type { OperationSpec, Provenance } from '../spec/operations.ts';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Request body as sent (text), if any. */
  body?: string;
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
}

export interface Failure {
  check: string;
  provenance: Provenance;
  /** The documented sentence or the assumption (with its gap) that was broken. */
  rule: string;
  received: string;
  expected: string;
  /** A curl command that reproduces the exchange, secrets redacted. */
  repro?: string;
}

/** What a check function returns when the rule does not hold. */
export interface Violation {
  received: string;
  expected: string;
}

export interface Check<A = unknown> {
  name: string;
  provenance: Provenance;
  rule: string;
  /** `exchange` checks run on every recorded response; `scenario` checks are called by tests. */
  kind: 'exchange' | 'scenario';
  run(exchange: Exchange, args: A): Violation | undefined;
}
