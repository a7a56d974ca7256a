/**
 * `compareSnapshots(baseline, current)`: what a deployment now does differently from a baseline
 * snapshot — statuses, header names, content types and inferred body shapes per operation, the
 * observed gap values (U-table) and the plan-limit estimates. Every finding is `observed`.
 *
 * Only behaviour is compared, never run-to-run noise: counts, timestamps and the target name are
 * ignored; `integer` and `number` are one type (a float that happens to be whole is not a change);
 * an array seen only empty says nothing about its items; limit estimates move within tolerance;
 * something measured on one side only is "not measured", never a removal.
 */
import type {
  BehaviourSnapshot,
  OperationObservation,
  PlanLimitObservation,
} from '../report/snapshot.ts';
import { flattenShape, type Shape } from '../report/shape.ts';
import type { CompareFinding, CompareLocation, CompareOptions, Level } from './types.ts';

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
  'response-field-became-required': {
    level: 'INFO',
    what: 'a response field that was sometimes missing is always sent',
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

const RATE_HEADERS = /^(x-ratelimit-|retry-after$)/;

/** Values a limit classifier gives when it could not tell: not a measurement. */
const UNMEASURED = new Set(['unknown', 'inconclusive', 'missing-data', '']);

class Findings {
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

export function compareSnapshots(
  baseline: BehaviourSnapshot,
  current: BehaviourSnapshot,
  opts: CompareOptions = {},
): CompareFinding[] {
  const out = new Findings();
  compareOperations(
    out,
    baseline.operations ?? {},
    current.operations ?? {},
    opts.partial ?? false,
  );
  compareGaps(out, baseline.gaps ?? {}, current.gaps ?? {});
  compareLimits(out, baseline.limits ?? [], current.limits ?? [], opts);
  return out.list;
}

const byText = (a: string, b: string) => a.localeCompare(b);
const byStatus = (a: string, b: string) => Number(a) - Number(b) || a.localeCompare(b);
const union = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])];

function compareOperations(
  out: Findings,
  a: Record<string, OperationObservation>,
  b: Record<string, OperationObservation>,
  partial: boolean,
): void {
  for (const op of union(a, b).sort(byText)) {
    const x = a[op];
    const y = b[op];
    if (!y) {
      out.add(
        'operation-not-observed',
        `${op} was not exercised in this run (the baseline saw ${Object.keys(x!.statuses).join(', ')})`,
        { operation: op },
        { baseline: Object.keys(x!.statuses) },
      );
      continue;
    }
    if (!x) {
      out.add(
        'operation-added',
        `${op} answered ${Object.keys(y.statuses).join(', ')}; the baseline never saw it`,
        { operation: op },
        { current: Object.keys(y.statuses) },
      );
      continue;
    }
    const now = Object.keys(y.statuses).sort(byStatus);
    for (const status of union(x.statuses, y.statuses).sort(byStatus)) {
      const s = x.statuses[status];
      const t = y.statuses[status];
      const at = { operation: op, status };
      if (!t) {
        if (partial)
          out.add('status-not-observed', `${op} ${status} was not seen in this partial run`, at, {
            baseline: status,
            current: now,
          });
        else
          out.add(
            'status-removed',
            `${op} no longer answers ${status} (now ${now.join(', ') || 'nothing'})`,
            at,
            { baseline: status, current: now },
          );
        continue;
      }
      if (!s) {
        out.add(
          status.startsWith('5') ? 'server-error-added' : 'status-added',
          `${op} now answers ${status}`,
          at,
          { current: status },
        );
        continue;
      }
      compareList(out, at, s.headers, t.headers, 'header');
      compareList(out, at, s.contentTypes, t.contentTypes, 'content type');
      compareBody(out, at, s.shape, t.shape);
    }
  }
}

function compareList(
  out: Findings,
  at: { operation: string; status: string },
  a: readonly string[],
  b: readonly string[],
  what: 'header' | 'content type',
): void {
  const norm = (xs: readonly string[]) => new Set(xs.map((x) => x.toLowerCase()));
  const x = norm(a);
  const y = norm(b);
  for (const v of [...x].sort()) {
    if (y.has(v)) continue;
    if (what === 'header')
      out.add(
        RATE_HEADERS.test(v) ? 'ratelimit-header-removed' : 'response-header-removed',
        `${at.operation} ${at.status} no longer sends ${v}`,
        { ...at, header: v },
        { baseline: v },
      );
    else
      out.add(
        'content-type-removed',
        `${at.operation} ${at.status} no longer answers ${v} (now ${[...y].join(', ') || 'none'})`,
        { ...at, contentType: v },
        { baseline: v, current: [...y] },
      );
  }
  for (const v of [...y].sort()) {
    if (x.has(v)) continue;
    if (what === 'header')
      out.add(
        'response-header-added',
        `${at.operation} ${at.status} now sends ${v}`,
        { ...at, header: v },
        { current: v },
      );
    else
      out.add(
        'content-type-added',
        `${at.operation} ${at.status} now answers ${v}`,
        { ...at, contentType: v },
        { current: v },
      );
  }
}

/** A flattened type as a set; `integer` folds into `number`, `never` (empty array) drops out. */
function typeSet(t: string): Set<string> {
  return new Set(
    t
      .split('|')
      .map((p) => (p === 'integer' ? 'number' : p))
      .filter((p) => p !== 'never'),
  );
}

const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);
const parentOf = (p: string) => (depth(p) <= 1 ? '/' : p.slice(0, p.lastIndexOf('/')));

/**
 * Objects whose members are all numbers, with two or more keys between both sides or a key
 * seen only sometimes: maps of counts keyed by data (`{"open": 3, "pending": 1}`). No resource
 * of the API is made of numbers only.
 */
function countMapsOf(...flats: Array<Record<string, string>>): string[] {
  const members = new Map<string, Map<string, string[]>>();
  for (const flat of flats)
    for (const [p, t] of Object.entries(flat)) {
      if (p === '/' || p.endsWith('/*') || !typeSet(flat[parentOf(p)] ?? '').has('object'))
        continue;
      const m = members.get(parentOf(p)) ?? new Map<string, string[]>();
      m.set(p, [...(m.get(p) ?? []), t]);
      members.set(parentOf(p), m);
    }
  const numeric = (t: string) => [...typeSet(t)].every((x) => x === 'number' || x === 'undefined');
  return [...members]
    .filter(([, m]) => {
      const ts = [...m.values()].flat();
      const sometimes = ts.some((t) => typeSet(t).has('undefined'));
      return ts.every(numeric) && (m.size >= 2 || sometimes);
    })
    .map(([p]) => p);
}
const under = (p: string, q: string) => (q === '/' ? p !== '/' : p.startsWith(`${q}/`));

function compareBody(
  out: Findings,
  at: { operation: string; status: string },
  a: Shape | undefined,
  b: Shape | undefined,
): void {
  if (a === undefined && b === undefined) return;
  if (b === undefined) {
    out.add('response-body-not-json', `${at.operation} ${at.status} no longer answers JSON`, at);
    return;
  }
  if (a === undefined) {
    out.add('response-body-now-json', `${at.operation} ${at.status} now answers JSON`, at);
    return;
  }
  const fa = flattenShape(a);
  const fb = flattenShape(b);
  // Parents first, so a removed or added container is one finding, not one per leaf.
  const pointers = union(fa, fb).sort((p, q) => depth(p) - depth(q) || p.localeCompare(q));
  const settled: string[] = [];
  const countMaps = new Set(countMapsOf(fa, fb));
  for (const field of pointers) {
    if (settled.some((q) => under(field, q))) continue;
    const where = { ...at, field };
    const name = `${at.operation} ${at.status} ${field}`;
    const ta = fa[field];
    const tb = fb[field];
    // Which keys a map of counts has depends on the data the run created, not on behaviour.
    const inCounts = countMaps.has(parentOf(field));
    if (tb === undefined) {
      if (inCounts) {
        // The key's presence is data, not behaviour.
      } else if (typeSet(ta!).has('undefined'))
        out.add(
          'response-field-not-observed',
          `${name} (sometimes sent before) was not seen`,
          where,
          {
            baseline: ta,
          },
        );
      else out.add('response-field-removed', `${name} is no longer sent`, where, { baseline: ta });
      settled.push(field);
      continue;
    }
    if (ta === undefined) {
      if (!inCounts) out.add('response-field-added', `${name} is new`, where, { current: tb });
      settled.push(field);
      continue;
    }
    const x = typeSet(ta);
    const y = typeSet(tb);
    // Items of an array seen only empty on one side: nothing to compare below.
    if (x.size === 0 || y.size === 0) {
      settled.push(field);
      continue;
    }
    const optA = x.delete('undefined');
    const optB = y.delete('undefined');
    const lost = [...x].filter((t) => !y.has(t));
    const gained = [...y].filter((t) => !x.has(t));
    const values = { baseline: ta, current: tb };
    if (lost.length > 0 && gained.length > 0)
      out.add('response-field-retyped', `${name} was ${ta}, is ${tb}`, where, values);
    else if (gained.length > 0)
      out.add(
        'response-field-type-widened',
        `${name} can now be ${gained.join('|')}`,
        where,
        values,
      );
    else if (lost.length > 0)
      out.add(
        'response-field-type-narrowed',
        `${name} is no longer ${lost.join('|')}`,
        where,
        values,
      );
    // In a map of counts, whether a key shows is data, not behaviour.
    if (!inCounts && !optA && optB)
      out.add('response-field-became-optional', `${name} is sometimes missing now`, where, values);
    else if (!inCounts && optA && !optB)
      out.add('response-field-became-required', `${name} is always sent now`, where, values);
  }
}

/**
 * Parts of a probe value that differ on every run and say nothing about behaviour: timestamps,
 * generated ids (`ctc_nE_S3RZRli7A`, UUIDs, long hex). They become placeholders before comparing.
 */
const VOLATILE_TEXT: Array<[RegExp, string]> = [
  // The zone designator stays: a deployment dropping the Z is a change.
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?/g, '<date-time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  // Prefixed random ids have a digit or capital; error codes like `invalid_request_body` do not.
  [/\b[a-z]{2,8}_(?=[A-Za-z0-9_-]*[A-Z0-9])[A-Za-z0-9_-]{8,}/g, '<id>'],
  [/\b[0-9a-f]{16,}\b/gi, '<hex>'],
];

export function normalizeVolatile(s: string): string {
  return VOLATILE_TEXT.reduce((t, [re, token]) => t.replace(re, token), s);
}

/** JSON with sorted keys, and the members of `{varies: [...]}` in a stable order. */
function canonical(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(normalizeVolatile(v));
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    if (keys.length === 1 && keys[0] === 'varies' && Array.isArray(o.varies))
      return `{"varies":[${o.varies.map(canonical).sort().join(',')}]}`;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

const gapOrder = (a: string, b: string) => {
  const n = (s: string) => (/^U\d+$/.test(s) ? Number(s.slice(1)) : Number.POSITIVE_INFINITY);
  return n(a) - n(b) || a.localeCompare(b);
};

function compareGaps(
  out: Findings,
  a: Record<string, Record<string, unknown>>,
  b: Record<string, Record<string, unknown>>,
): void {
  for (const gap of union(a, b).sort(gapOrder)) {
    const x = a[gap] ?? {};
    const y = b[gap] ?? {};
    for (const probe of union(x, y).sort(byText)) {
      const where = { gap, probe };
      if (!(probe in y)) {
        out.add('gap-not-observed', `${gap} “${probe}” was not probed in this run`, where, {
          baseline: x[probe],
        });
      } else if (!(probe in x)) {
        out.add('gap-probe-added', `${gap} “${probe}” is probed now`, where, { current: y[probe] });
      } else if (!sameProbeValue(probe, x[probe], y[probe])) {
        out.add(
          'gap-value-changed',
          `${gap} “${probe}” was ${canonical(x[probe])}, is ${canonical(y[probe])}`,
          where,
          { baseline: x[probe], current: y[probe] },
        );
      }
    }
  }
}

/** A probe that names a duration unit records timings, which jitter from run to run. */
const TIMING = /\b(ms|milliseconds?|seconds?|spacing|latency|duration|delay)\b/i;

/** Timings agree within ±50 % (and ±50 ms); their order of magnitude is the behaviour. */
function closeTiming(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= Math.max(50, 0.5 * Math.max(Math.abs(a), Math.abs(b)));
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => closeTiming(v, b[i]));
  return canonical(a) === canonical(b);
}

function sameProbeValue(probe: string, a: unknown, b: unknown): boolean {
  return TIMING.test(probe) ? closeTiming(a, b) : canonical(a) === canonical(b);
}

const measured = (v: unknown): boolean =>
  typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' && !UNMEASURED.has(v);

function compareLimits(
  out: Findings,
  a: readonly PlanLimitObservation[],
  b: readonly PlanLimitObservation[],
  opts: CompareOptions,
): void {
  const burstTol = opts.burstTolerance ?? 3;
  const rateTol = opts.rateTolerance ?? 0.03;
  const byPlan = (xs: readonly PlanLimitObservation[]) => new Map(xs.map((l) => [l.plan, l]));
  const x = byPlan(a);
  const y = byPlan(b);
  for (const plan of [...new Set([...x.keys(), ...y.keys()])].sort(byText)) {
    const l = x.get(plan);
    const m = y.get(plan);
    if (!l || !m) {
      out.add(
        'limit-not-measured',
        `${plan} plan limits were not measured ${l ? 'in this run' : 'in the baseline'}`,
        { plan },
        { baseline: l, current: m },
      );
      continue;
    }
    const props = [
      ['burst', 'limit-burst-changed', (p: number, q: number) => Math.abs(p - q) > burstTol],
      [
        'ratePerMin',
        'limit-rate-changed',
        (p: number, q: number) => Math.abs(p - q) > rateTol * Math.abs(p),
      ],
      ['limitHeader', 'limit-header-changed', (p: number, q: number) => p !== q],
      ['algorithm', 'limit-algorithm-changed', undefined],
      ['resetUnit', 'limit-reset-unit-changed', undefined],
      ['scope', 'limit-scope-changed', undefined],
    ] as const;
    for (const [property, rule, differs] of props) {
      const p = l[property];
      const q = m[property];
      if (p === undefined && q === undefined) continue;
      const where = { plan, property };
      const values = { baseline: p, current: q };
      if (!measured(p) || !measured(q)) {
        if (canonical(p) !== canonical(q))
          out.add(
            'limit-not-measured',
            `${plan} ${property} was not measured ${measured(p) ? 'in this run' : 'in the baseline'} (${String(p)} → ${String(q)})`,
            where,
            values,
          );
        continue;
      }
      const changed = differs ? differs(p as number, q as number) : p !== q;
      if (changed) out.add(rule, `${plan} ${property} was ${p}, is ${q}`, where, values);
    }
  }
}
