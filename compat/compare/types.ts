import type { Level } from '../../core/level.ts';

/** Severity for existing clients: one scale for spec and behaviour changes (compat/findings). */
export { type Level, LEVEL_RANK } from '../../core/level.ts';

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

/** Knobs for `compareSnapshots`. */
export interface CompareOptions {
  /** Burst estimates closer than this many tokens are the same limit. Default 3. */
  burstTolerance?: number;
  /** Rate estimates closer than this fraction of the baseline are the same limit. Default 0.03. */
  rateTolerance?: number;
  /**
   * The current run exercised only part of the suite (`--grep`): a status it did not see is
   * not evidence of removal, so `status-removed` becomes the INFO `status-not-observed`.
   * Headers, fields and values of what it did see are compared as usual. Default false.
   */
  partial?: boolean;
  /**
   * False: the current run did not measure plan limits at all (`--skip load`), so they are not
   * compared (no `limit-not-measured` for each plan). Default true.
   */
  limits?: boolean;
}
