/**
 * The rules a snapshot comparison reports, each with its level, and the list a comparison adds
 * its findings and notes to (every finding `observed`, its level the rule's).
 *
 * A rule marked `absence` reads something as gone. `strong`: the baseline saw it every time its
 * tests ran (a status, a field always sent) — evidence whenever those tests ran. `weak`: the
 * baseline saw it only sometimes (a header or a type some answers had, others not: `Link` when
 * there is a next page) — that depends on the data the other tests left behind, so it is
 * evidence only between runs of the same tests; otherwise the list files it as a note.
 */
import type { CompareNote, CompareNoteKind } from '../../core/compatibility.ts';
import type { Level } from '../../core/level.ts';
import type { CompareFinding, CompareLocation } from './types.ts';

/** Every rule `compareSnapshots` emits, with its level. The ids are stable: match on them in CI. */
export const RULES = {
  'operation-not-observed': {
    level: 'INFO',
    what: 'an operation of the baseline was not answered, though the tests that sent it ran',
    absence: 'strong',
  },
  'operation-added': { level: 'INFO', what: 'an operation answered that the baseline never saw' },
  'status-removed': {
    level: 'ERR',
    what: 'an operation no longer answers a status it used to',
    absence: 'strong',
  },
  'status-added': { level: 'INFO', what: 'an operation answers a status it did not before' },
  'server-error-added': { level: 'WARN', what: 'an operation now answers a 5xx' },
  'ratelimit-header-removed': {
    level: 'ERR',
    what: 'an X-RateLimit-* or Retry-After header is no longer sent',
    absence: 'strong',
  },
  'response-header-removed': {
    level: 'ERR',
    what: 'a response header is no longer sent',
    absence: 'strong',
  },
  'response-header-added': { level: 'INFO', what: 'a response header is new' },
  'content-type-removed': {
    level: 'ERR',
    what: 'a response content type is no longer used',
    absence: 'strong',
  },
  'content-type-added': { level: 'INFO', what: 'a response content type is new' },
  'response-body-not-json': { level: 'ERR', what: 'a JSON response body is no longer JSON' },
  'response-body-now-json': { level: 'INFO', what: 'a response body is JSON now' },
  'response-field-removed': {
    level: 'ERR',
    what: 'a response field is no longer sent',
    absence: 'strong',
  },
  'response-field-added': { level: 'INFO', what: 'a response field is new' },
  'response-field-not-observed': {
    level: 'INFO',
    what: 'a response field the baseline saw only sometimes was not seen',
    absence: 'weak',
  },
  'response-field-retyped': { level: 'ERR', what: 'a response field has another type' },
  'response-field-type-widened': {
    level: 'WARN',
    what: 'a response field takes a type it never had (e.g. null)',
  },
  'response-field-type-narrowed': {
    level: 'INFO',
    what: 'a response field no longer takes one of its types',
    absence: 'weak',
  },
  'response-field-became-optional': {
    level: 'WARN',
    what: 'a response field that was always sent is sometimes missing',
    absence: 'strong',
  },
  'gap-value-changed': { level: 'WARN', what: 'an observed gap value (U-table) changed' },
  'gap-not-observed': {
    level: 'INFO',
    what: 'a gap probe of the baseline was not recorded, though the tests that recorded it ran',
    absence: 'strong',
  },
  'gap-probe-added': { level: 'INFO', what: 'a gap probe ran that the baseline did not have' },
  'limit-burst-changed': {
    level: 'ERR',
    what: 'the burst measurements disagree: their intervals do not overlap',
  },
  'limit-rate-changed': {
    level: 'ERR',
    what: 'the refill-rate measurements disagree: their intervals do not overlap',
  },
  'limit-header-changed': { level: 'ERR', what: 'X-RateLimit-Limit announces another number' },
  'limit-algorithm-changed': { level: 'ERR', what: 'the limiter algorithm changed' },
  'limit-reset-unit-changed': { level: 'ERR', what: 'the X-RateLimit-Reset unit changed' },
  'limit-scope-changed': { level: 'ERR', what: 'the bucket scope (per key / shared) changed' },
} as const satisfies Record<string, { level: Level; what: string; absence?: 'strong' | 'weak' }>;

export type RuleId = keyof typeof RULES;

/**
 * Which absences a comparison may read as gone: `all` between runs of the same tests, `strong`
 * between runs of different tests (each side kept to the tests both ran), `none` when a run
 * does not record what it exercised and the current one was partial.
 */
export type Evidence = 'all' | 'strong' | 'none';

/** The findings of one comparison, in the order found; each takes its level from its rule. */
export class Findings {
  readonly list: CompareFinding[] = [];
  readonly notes: CompareNote[] = [];
  evidence: Evidence = 'all';
  /**
   * `weak`: this instance of an `absence` rule is about something the baseline saw only
   * sometimes (a header some of a status's answers lacked).
   */
  add(
    rule: RuleId,
    message: string,
    pointer: CompareLocation,
    values: { baseline?: unknown; current?: unknown } = {},
    opts: { weak?: boolean } = {},
  ): void {
    const r: { level: Level; absence?: 'strong' | 'weak' } = RULES[rule];
    const absence = r.absence && (opts.weak ? 'weak' : r.absence);
    if (
      absence &&
      (this.evidence === 'none' || (this.evidence === 'strong' && absence === 'weak'))
    ) {
      const why =
        this.evidence === 'none'
          ? 'this partial run may not have exercised it'
          : 'the baseline saw it only sometimes, and this run ran other tests';
      this.note('not-exercised', `${message} (${why})`, pointer);
      return;
    }
    const f: CompareFinding = {
      rule,
      level: r.level,
      provenance: 'observed',
      message,
      pointer,
    };
    if (values.baseline !== undefined) f.baseline = values.baseline;
    if (values.current !== undefined) f.current = values.current;
    this.list.push(f);
  }
  /** Something left out of the comparison, and why. */
  note(kind: CompareNoteKind, message: string, pointer: CompareLocation): void {
    this.notes.push({ kind, message, pointer });
  }
}
