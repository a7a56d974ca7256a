/**
 * Every pass the harness makes over an answer a target sent, each as the run makes it, and the
 * answers a long-lived staging gives: one-word bodies, a list whose ticket carries a
 * one-word subject, a 10 MiB list, an array nested 10 000 deep. bench/target-data.ts times each
 * pass against JSON.parse of the same bytes; test/harness/target-data.test.ts runs each on the
 * 1 MiB word and the deep array and checks what comes out is right and bounded.
 */
import { emptyArea, fileFailures } from '../../core/area.ts';
import { checks } from '../../core/checks/index.ts';
import { schemaViolation } from '../../core/checks/failure.ts';
import { curlRepro } from '../../core/checks/repro.ts';
import type { Exchange } from '../../core/checks/types.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { loggableExchange } from '../../core/http/exchange-log.ts';
import { redact } from '../../core/redact.ts';
import { operations } from '../../core/spec/operations.ts';
import { compareSnapshots } from '../../compat/compare/compare-snapshots.ts';
import { renderExchange } from '../../fuzz/shared/transcript.ts';
import { renderConsole } from '../../report/console.ts';
import { renderHtml } from '../../report/html.ts';
import { buildSnapshot } from '../../report/snapshot.ts';
import type { Summary } from '../../report/summary.ts';

export const KiB = 1024;
export const MiB = 1024 * KiB;

const TICKET = {
  id: 'tkt_0001',
  subject: 'a subject',
  status: 'open',
  priority: 'normal',
  requester: { email: 'ada@example.com', name: 'Ada' },
  sla: { first_response_due: '2026-01-01T04:00:00Z' },
  created_at: '2026-01-01T00:00:00Z',
  tags: ['harness'],
};

/** One answer of the target: its bytes as text, and what they parse to (undefined: not JSON). */
export interface Answer {
  name: string;
  bodyText: string;
  json: unknown;
}

const parsed = (name: string, bodyText: string): Answer => {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  return { name, bodyText, json };
};

/** A body that is one word of `bytes` bytes (not JSON: a plain-text answer). */
export const wordBody = (bytes: number) => parsed(`one-word body of ${bytes} B`, 'x'.repeat(bytes));

/** A list page whose one ticket's subject is one word, the whole body about `bytes` bytes. */
export const wordSubjectList = (bytes: number) => {
  const head = JSON.stringify({ data: [{ ...TICKET, subject: '' }], has_more: false });
  const subject = 'x'.repeat(Math.max(1, bytes - head.length - 24));
  return parsed(
    `list with a ${bytes} B one-word subject`,
    JSON.stringify({ data: [{ ...TICKET, subject }], has_more: false, next_cursor: null }),
  );
};

/** A list page of alike tickets, about `bytes` bytes. */
export const bigList = (bytes: number) => {
  const one = JSON.stringify(TICKET).length + 1;
  const data = Array.from({ length: Math.ceil(bytes / one) }, (_, i) => ({
    ...TICKET,
    id: `tkt_${i}`,
  }));
  return parsed(
    `list of ${data.length} tickets`,
    JSON.stringify({ data, has_more: false, next_cursor: null }),
  );
};

/** An array nested `depth` deep (built as text: JSON.stringify cannot write it). */
export const deepArray = (depth: number) =>
  parsed(`array nested ${depth} deep`, `${'['.repeat(depth)}"bottom"${']'.repeat(depth)}`);

const LIST = operations().find((o) => o.operationId === 'listTickets')!;

/** The answer as the exchange the contract suite records (GET /v1/tickets answered 200). */
export function exchangeOf(a: Answer, requestBody?: string): Exchange {
  return {
    request: {
      method: requestBody === undefined ? 'GET' : 'PATCH',
      url: 'https://staging.example.com/v1/tickets?limit=100',
      headers: {
        authorization: 'Bearer stk_full_benchkeybenchkeybench',
        accept: 'application/json',
      },
      ...(requestBody === undefined ? {} : { body: requestBody }),
    },
    response: {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'x-ratelimit-limit': '600',
        'x-ratelimit-remaining': '599',
        'x-ratelimit-reset': '1767225600',
      },
      bodyText: a.bodyText,
      ...(a.json === undefined ? {} : { json: a.json }),
    },
    durationMs: 12,
    operation: LIST,
  };
}

/** A run summary carrying the failures the checks found on the answer. */
export function summaryOf(ex: Exchange): Summary {
  const v = new Verdict(checks, 'list tickets');
  v.checkExchanges([ex]);
  const area = emptyArea();
  fileFailures(area, v.failures());
  return {
    schema: 'harness/summary',
    version: 1,
    runId: 'bench',
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    target: { baseUrl: 'https://staging.example.com', embedded: false, faults: [] },
    strict: false,
    verdict: 'pass',
    exitCode: 0,
    areas: { contracts: { ...area, headline: 'one answer' } },
    checks: [],
    tests: { passed: 1, failed: 0, skipped: 0, total: 1 },
  };
}

/** One pass over an answer: what the run does with it. Returns what it produced (to check). */
export interface Pass {
  name: string;
  run(a: Answer): unknown;
}

export const PASSES: Pass[] = [
  { name: 'redact', run: (a) => redact(a.bodyText) },
  // A repro of a request carrying the target's text (an echo, a PATCH of what it served).
  { name: 'curl repro', run: (a) => curlRepro(exchangeOf(a, a.bodyText)) },
  { name: 'fuzz transcript', run: (a) => renderExchange(exchangeOf(a, a.bodyText)) },
  {
    name: 'schema errors',
    run: (a) => (a.json === undefined ? undefined : schemaViolation('TicketList', a.json)),
  },
  { name: 'checks (every exchange check)', run: (a) => summaryOf(exchangeOf(a)) },
  { name: 'exchange log row', run: (a) => JSON.stringify(loggableExchange(exchangeOf(a))) },
  {
    name: 'snapshot shape + compare',
    run: (a) => {
      const row = { test: 't', ...loggableExchange(exchangeOf(a)) };
      const snap = buildSnapshot('https://staging.example.com', [row], []);
      return { snap, findings: compareSnapshots(snap, snap) };
    },
  },
  {
    name: 'console verdict',
    run: (a) => renderConsole(summaryOf(exchangeOf(a)), 'reports/latest'),
  },
  { name: 'HTML page', run: (a) => renderHtml(summaryOf(exchangeOf(a))) },
];
