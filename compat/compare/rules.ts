/**
 * The rules a snapshot comparison reports, each with its level, and the list a comparison adds
 * its findings to (every finding `observed`, its level the rule's).
 */
import type { Level } from '../../core/level.ts';
import type { CompareFinding, CompareLocation } from './types.ts';

/** Every rule `compareSnapshots` emits, with its level. The ids are stable: match on them in CI. */
export const RULES = {
  'operation-not-observed': {
    level: 'INFO',
    what: 'an operation of the baseline was not exercised in this run',
  },
  'operation-added': { level: 'INFO', what: 'an operation answered that the baseline never saw' },
  'status-removed': { level: 'ERR', what: 'an operation no longer answers a status it used to' },
  'status-not-observed': {
    level: 'INFO',
    what: 'a partial run did not see a status of the baseline',
  },
  'status-added': { level: 'INFO', what: 'an operation answers a status it did not before' },
  'server-error-added': { level: 'WARN', what: 'an operation now answers a 5xx' },
  'ratelimit-header-removed': {
    level: 'ERR',
    what: 'an X-RateLimit-* or Retry-After header is no longer sent',
  },
  'response-header-removed': { level: 'ERR', what: 'a response header is no longer sent' },
  'response-header-added': { level: 'INFO', what: 'a response header is new' },
  'content-type-removed': { level: 'ERR', what: 'a response content type is no longer used' },
  'content-type-added': { level: 'INFO', what: 'a response content type is new' },
  'response-body-not-json': { level: 'ERR', what: 'a JSON response body is no longer JSON' },
  'response-body-now-json': { level: 'INFO', what: 'a response body is JSON now' },
  'response-field-removed': { level: 'ERR', what: 'a response field is no longer sent' },
  'response-field-added': { level: 'INFO', what: 'a response field is new' },
  'response-field-not-observed': {
    level: 'INFO',
    what: 'a response field the baseline saw only sometimes was not seen',
  },
  'response-field-retyped': { level: 'ERR', what: 'a response field has another type' },
  'response-field-type-widened': {
    level: 'WARN',
    what: 'a response field takes a type it never had (e.g. null)',
  },
  'response-field-type-narrowed': {
    level: 'INFO',
    what: 'a response field no longer takes one of its types',
  },
  'response-field-became-optional': {
    level: 'WARN',
    what: 'a response field that was always sent is sometimes missing',
  },
  'gap-value-changed': { level: 'WARN', what: 'an observed gap value (U-table) changed' },
  'gap-not-observed': { level: 'INFO', what: 'a gap probe of the baseline did not run' },
  'gap-probe-added': { level: 'INFO', what: 'a gap probe ran that the baseline did not have' },
  'limit-not-measured': { level: 'INFO', what: 'a plan limit was measured on one side only' },
  'limit-burst-changed': { level: 'ERR', what: 'the burst estimate moved beyond tolerance' },
  'limit-rate-changed': { level: 'ERR', what: 'the refill-rate estimate moved beyond tolerance' },
  'limit-header-changed': { level: 'ERR', what: 'X-RateLimit-Limit announces another number' },
  'limit-algorithm-changed': { level: 'ERR', what: 'the limiter algorithm changed' },
  'limit-reset-unit-changed': { level: 'ERR', what: 'the X-RateLimit-Reset unit changed' },
  'limit-scope-changed': { level: 'ERR', what: 'the bucket scope (per key / shared) changed' },
} as const satisfies Record<string, { level: Level; what: string }>;

export type RuleId = keyof typeof RULES;

/** The findings of one comparison, in the order found; each takes its level from its rule. */
export class Findings {
  readonly list: CompareFinding[] = [];
  add(
    rule: RuleId,
    message: string,
    pointer: CompareLocation,
    values: { baseline?: unknown; current?: unknown } = {},
  ): void {
    const f: CompareFinding = {
      rule,
      level: RULES[rule].level,
      provenance: 'observed',
      message,
      pointer,
    };
    if (values.baseline !== undefined) f.baseline = values.baseline;
    if (values.current !== undefined) f.current = values.current;
    this.list.push(f);
  }
}
