/** One reading of a gap: the shape every group of the catalogue (index.ts) writes its readings in. */
export interface Reading<B = object> {
  /** `<gap>=<what>`: `U9=customer-note-is-reply`. */
  name: string;
  /** The gap of docs/assumptions.md it reads otherwise (`U9`, or `SLA` for the SLA targets). */
  gap: string;
  /** What the deployment then does. */
  does: string;
  /** The behaviour it changes. */
  set: Partial<B>;
  /**
   * What reports it: assumed checks (core/checks) or load verdicts whose mismatch names it, or
   * `probe:<gap>` when only the behaviour snapshot records it. A reading no one reports is a gap
   * the harness cannot see; the readings test holds each run to this list.
   */
  shows: readonly string[];
}
