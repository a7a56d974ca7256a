/**
 * One request/response of a load run, engine-neutral. Times are server seconds since the run
 * start (wall seconds × timeScale) so every estimator works in the deployment's own units.
 */
import type { RateHeaders } from './headers.ts';
import type { KeyIndex, PhaseName } from './schedule.ts';

export interface Sample {
  phase: PhaseName;
  key: KeyIndex;
  /** Position in the phase's send order (0-based). */
  index: number;
  /** Just before the request was handed to the client. */
  sentS: number;
  /** When the response head arrived. */
  recvS: number;
  /** HTTP status; 0 for a transport error. */
  status: number;
  headers: RateHeaders;
  /** S6 only: the request sent after waiting Retry-After. */
  retry?: boolean;
}
