/**
 * The behaviour snapshot's vocabulary (snapshot.json): what report/snapshot.ts builds from the
 * contract suite's rows and compat/compare diffs. Types only, shared by both wings.
 */
import type { loggableExchange } from '../http/exchange-log.ts';
import type { Shape } from './shape.ts';

export const SNAPSHOT_SCHEMA = 'harness/behaviour-snapshot';
/**
 * 2: gap probes keyed by stable id, their labels in `gapLabels` (1 keyed them by label).
 * 3: what the run exercised (`exercised`, the tests behind each status and probe) and plan limits
 *    as measurements with their interval. Version 2 is still read: see `BehaviourSnapshot`.
 */
export const SNAPSHOT_VERSION = 3;
/** The versions `harness compare` reads (load-snapshot.ts). */
export const READABLE_SNAPSHOT_VERSIONS: readonly number[] = [2, 3];

/** What one group of tests saw for an operation's status. */
export interface StatusView {
  headers: string[];
  contentTypes: string[];
  shape?: Shape;
}

export interface StatusObservation extends StatusView {
  count: number;
  /**
   * The contract tests (titles, as in `exercised.tests`) whose exchanges got this status. Absent
   * in version 2 snapshots: then nobody knows which test saw what.
   */
  tests?: string[];
  /**
   * Header names some answers of this status had and others lacked (version 3): what they
   * depend on (`Link` on a page with a next one) the other run may not have met.
   */
  sometimes?: string[];
}

export interface OperationObservation {
  statuses: Record<string, StatusObservation>;
}

/**
 * A measured number with its uncertainty: the estimate and the interval the measurement puts the
 * true value in (B̂'s bounds, r̂'s 95 % interval floored at the verdicts' ±1 %). A version 2
 * snapshot has the rounded value only (`low`/`high` absent).
 */
export interface Measurement {
  value: number;
  low?: number;
  high?: number;
  /**
   * The run could not vouch for it (its load verdict was inconclusive: the interval too wide to
   * judge the plan by). Never compared as a number.
   */
  inconclusive?: true;
}

export interface PlanLimitObservation {
  plan: string;
  burst?: Measurement;
  ratePerMin?: Measurement;
  algorithm?: string;
  /**
   * `low`: the classifier could not tell the algorithm apart from another (its alternatives):
   * not compared (version 3; a version 2 snapshot's algorithm counts as told).
   */
  algorithmConfidence?: 'high' | 'low';
  resetUnit?: string;
  scope?: string;
  limitHeader?: number;
}

/** What a run did, so a comparison never reads something a run did not look at as gone. */
export interface Exercised {
  /** The areas whose observations are in the snapshot: `contracts`, and `load` when it measured. */
  areas: string[];
  /** The contract tests that ran (not skipped), by title (`describe › test`). */
  tests: string[];
  /** The run ran only the tests matching this (--grep). */
  grep?: string;
}

export interface BehaviourSnapshot {
  schema: typeof SNAPSHOT_SCHEMA;
  /** 2 or 3 when read (load-snapshot.ts); 3 when written. */
  version: number;
  takenAt: string;
  target: string;
  /** Absent in version 2 snapshots. */
  exercised?: Exercised;
  operations: Record<string, OperationObservation>;
  /** gap → probe id → observed value. */
  gaps: Record<string, Record<string, unknown>>;
  /** gap → probe id → the probe's label, for the probes that have one (display only). */
  gapLabels?: Record<string, Record<string, string>>;
  /** gap → probe id → the tests that recorded it (version 3). */
  probedBy?: Record<string, Record<string, string[]>>;
  limits: PlanLimitObservation[];
}

/** One probe the contract suite recorded (contracts/fixtures.ts `probe`). */
export interface ProbeRow {
  gap: string;
  /** Stable id of the probe within its gap (what comparisons match on). */
  id: string;
  /** What people read; may be reworded without changing the comparison. */
  label?: string;
  value: unknown;
  /** The test's title, `describe › test` (as in the exchange log). */
  test: string;
}

/** One exchange of the contract suite's raw log (core/http/exchange-log.ts), by test. */
export type ExchangeRow = ReturnType<typeof loggableExchange> & { test: string };
