/**
 * The behaviour snapshot's vocabulary (snapshot.json): what report/snapshot.ts builds from the
 * contract suite's rows and compat/compare diffs. Types only, shared by both wings.
 */
import type { loggableExchange } from '../http/exchange-log.ts';
import type { Shape } from './shape.ts';

export const SNAPSHOT_SCHEMA = 'harness/behaviour-snapshot';
/** 2: gap probes keyed by stable id, their labels in `gapLabels` (1 keyed them by label). */
export const SNAPSHOT_VERSION = 2;

export interface OperationObservation {
  statuses: Record<
    string,
    { count: number; headers: string[]; contentTypes: string[]; shape?: Shape }
  >;
}

export interface PlanLimitObservation {
  plan: string;
  burst?: number;
  ratePerMin?: number;
  algorithm?: string;
  resetUnit?: string;
  scope?: string;
  limitHeader?: number;
}

export interface BehaviourSnapshot {
  schema: typeof SNAPSHOT_SCHEMA;
  version: typeof SNAPSHOT_VERSION;
  takenAt: string;
  target: string;
  operations: Record<string, OperationObservation>;
  /** gap → probe id → observed value. */
  gaps: Record<string, Record<string, unknown>>;
  /** gap → probe id → the probe's label, for the probes that have one (display only). */
  gapLabels?: Record<string, Record<string, string>>;
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
  test: string;
}

/** One exchange of the contract suite's raw log (core/http/exchange-log.ts), by test. */
export type ExchangeRow = ReturnType<typeof loggableExchange> & { test: string };
