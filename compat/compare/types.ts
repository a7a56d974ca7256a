/** Where a finding sits and what it says: core/compatibility.ts (the reports render them too). */
export type { CompareFinding, CompareLocation } from '../../core/compatibility.ts';

/** Knobs for `compareBehaviour`. */
export interface CompareOptions {
  /**
   * Two version 2 snapshots only (limits without intervals): burst values closer than this many
   * tokens are the same limit. Default 3.
   */
  burstTolerance?: number;
  /** Two version 2 snapshots only: rates closer than this fraction are the same. Default 0.03. */
  rateTolerance?: number;
  /**
   * The current run exercised only part of the suite. Matters only against a snapshot that does
   * not record what each test saw (version 2): then nothing is read as gone — a status, header,
   * field or probe it did not see is a note. Default: whether the current snapshot says it ran
   * with --grep.
   */
  partial?: boolean;
  /**
   * False: the current run did not measure plan limits (`--skip load`), whatever its snapshot
   * holds. Default true.
   */
  limits?: boolean;
}
