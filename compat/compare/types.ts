/** Where a finding sits and what it says: core/compatibility.ts (the reports render them too). */
export type { CompareFinding, CompareLocation } from '../../core/compatibility.ts';

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
