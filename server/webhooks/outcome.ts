/** What one attempt means for its delivery. */
export type AttemptVerdict = 'delivered' | 'retry' | 'failed' | 'gone';

/**
 * U14: 2xx succeeds; timeout, connection error, 408, 429 and 5xx are retried; 410 means the
 * receiver is gone for good; any other status is final (the receiver rejected this delivery,
 * and sending the same bytes again cannot change its mind).
 */
export function classifyAttempt(status: number | undefined): AttemptVerdict {
  if (status === undefined) return 'retry';
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'failed';
}
