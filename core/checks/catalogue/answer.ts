/**
 * What scenario checks read of an answer: its JSON body as a record, whether it shows a ticket
 * at all, and whether its status is one the spec gives the operation (the assumed status-code
 * checks of tickets and resources).
 */
import { defineCheck } from '../registry.ts';
import type { Assumption, Exchange } from '../types.ts';

/** The answer's JSON body; `{}` when there is none, so a missing field reads as absent. */
export const body = (ex: Exchange) => (ex.response?.json ?? {}) as Record<string, any>;

/**
 * Operations whose answer is a ticket only by our reading: the docs give a ticket as the answer
 * to creation and to the list, but neither the get (U8), nor the update (U6), nor the close (U7)
 * answer — a 204, or the ticket in an envelope (`{"ticket": …}`), is a correct deployment's too.
 */
const TICKET_ANSWER_ASSUMED = new Set(['getTicket', 'updateTicket', 'closeTicket']);

/**
 * When a check judging the ticket in `ex`'s answer finds none there (no `id`) and the answer
 * of that operation is a ticket only by our reading: the assumption a violation then leans on.
 * A documented check judging such answers declares those gaps (U6, U7, U8).
 */
export function noTicketShown(ex: Exchange): Assumption | undefined {
  const op = ex.operation;
  if (!op?.operationId || !TICKET_ANSWER_ASSUMED.has(op.operationId)) return undefined;
  if (typeof body(ex).id === 'string') return undefined;
  return {
    gap: op.gap ?? 'assumed',
    why: `${op.method.toUpperCase()} ${op.template} answered ${ex.response?.status ?? 'nothing'} without a ticket (no id at the top of its body), and what it answers is not shown`,
  };
}

/** A violation, leaning on `noTicketShown(ex)` where the answer showed no ticket. */
export function judgedOnTicket<V extends { received: string; expected: string }>(
  ex: Exchange,
  v: V | undefined,
): (V & { leansOn?: Assumption }) | undefined {
  const leansOn = v && noTicketShown(ex);
  return v && leansOn ? { ...v, leansOn } : v;
}

/** An assumed status-code check: the answer's status is one of `expected`. */
export const statusIn = <const N extends string>(name: N, rule: string) =>
  defineCheck({
    name,
    provenance: 'assumed',
    rule,
    kind: 'scenario',
    run(ex, a: { expected: number[]; what: string }) {
      const s = ex.response?.status;
      return s !== undefined && a.expected.includes(s)
        ? undefined
        : {
            received: `${s ?? ex.error ?? 'no response'} for ${a.what}`,
            expected: a.expected.join(' or '),
          };
    },
  });
