/**
 * What scenario checks read of an answer: its JSON body as a record, and whether its status is
 * one the spec gives the operation (the assumed status-code checks of tickets and resources).
 */
import { defineCheck } from '../registry.ts';
import type { Exchange } from '../types.ts';

/** The answer's JSON body; `{}` when there is none, so a missing field reads as absent. */
export const body = (ex: Exchange) => (ex.response?.json ?? {}) as Record<string, any>;

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
