/**
 * The vocabulary of a behaviour comparison, shared by compat/ (which finds the changes) and the
 * reports (which show them): where a finding sits, the finding, the run's comparison with its
 * baseline (`summary.compatibility`), and the one text form of a location and of a value.
 */
import type { Level } from './level.ts';

/**
 * Where a finding sits in the snapshots. Only the members that apply are set: an operation
 * finding has `operation`, a status finding adds `status`, a field finding adds `field` (a
 * pointer from `flattenShape`, `*` for array items), a gap finding has `gap` and `probe`, a
 * limit finding `plan` and `property`.
 */
export interface CompareLocation {
  operation?: string;
  status?: string;
  header?: string;
  contentType?: string;
  field?: string;
  gap?: string;
  probe?: string;
  plan?: string;
  property?: string;
}

/** One difference between what two deployments (or two runs) were observed to do. */
export interface CompareFinding {
  /** Stable rule id, e.g. `response-field-removed`. Safe to match on in CI. */
  rule: string;
  level: Level;
  /** Always `observed`: a snapshot records behaviour, never a documented promise. */
  provenance: 'observed';
  message: string;
  pointer: CompareLocation;
  /** The baseline's value, when it had one. */
  baseline?: unknown;
  /** The current value, when it has one. */
  current?: unknown;
}

/**
 * Why something of either run was left out of the comparison: not a change, and said so.
 *   - `not-exercised`: only tests, probes or an area the other run did not run saw it;
 *   - `not-measured`: a plan limit (or one of its properties) one run did not measure;
 *   - `inconclusive`: a measurement its run could not vouch for, never compared as a number;
 *   - `no-interval`: a measurement without its uncertainty (an older snapshot), compared with the
 *     other run's interval only;
 *   - `no-record`: a snapshot that does not record what it exercised (version 2);
 *   - `data`: what depends on the data a run met, not on behaviour (a field the resource leaves
 *     out for some records, missing from this answer's items).
 */
export type CompareNoteKind =
  | 'not-exercised'
  | 'not-measured'
  | 'inconclusive'
  | 'no-interval'
  | 'no-record'
  | 'data';

export interface CompareNote {
  kind: CompareNoteKind;
  message: string;
  pointer: CompareLocation;
}

/** The notes, one line per kind: how many, and the first few in full (summary.json has all). */
export function notesText(notes: readonly CompareNote[], show = 3): string[] {
  const kinds = [...new Set(notes.map((n) => n.kind))];
  return kinds.map((k) => {
    const of = notes.filter((n) => n.kind === k);
    const head = of.slice(0, show).map((n) => n.message);
    return `${NOTE_HEAD[k]} (${of.length}): ${head.join('; ')}${of.length > show ? `; … ${of.length - show} more` : ''}`;
  });
}

const NOTE_HEAD: Record<CompareNoteKind, string> = {
  'not-exercised': 'not compared, only one run exercised it',
  'not-measured': 'not compared, only one run measured it',
  inconclusive: 'not compared, an inconclusive measurement',
  'no-interval': 'compared by one interval, the other run recorded none',
  'no-record': 'compared without a record of what was exercised',
  data: 'not a change, it depends on the data a run met',
};

/** What `summary.compatibility` holds and the HTML page's compatibility section shows. */
export interface CompatibilityReport {
  /** The baseline file, relative to the working directory. */
  baseline: string;
  baselineTakenAt: string;
  counts: Record<Level, number>;
  findings: CompareFinding[];
  markdown: string;
  /** The level at or above which a change fails the run's gate (HARNESS_COMPAT_FAIL_ON). */
  failOn?: Level;
  /** True when the run was partial (see `CompareOptions.partial`). */
  partial?: boolean;
  /** What was left out of the comparison, and why (never a finding). */
  notes?: CompareNote[];
  /** Set when the baseline could not be read; the run goes on without a comparison. */
  error?: string;
}

/** `GET /v1/tickets › 200 › /data/*\/id`: where a compare finding sits, one line a person can follow into the snapshot. */

export function whereText(p: CompareLocation): string {
  return [
    p.operation,
    p.status,
    p.header && `header ${p.header}`,
    p.contentType && `content type ${p.contentType}`,
    p.field && `field ${p.field}`,
    p.gap,
    p.probe && `“${p.probe}”`,
    p.plan && `plan ${p.plan}`,
    p.property,
  ]
    .filter(Boolean)
    .join(' › ');
}

/** A short JSON rendering of a value (long ones are cut: the JSON report has them whole). */
export function valueText(v: unknown, max = 80): string {
  if (v === undefined) return '—';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
