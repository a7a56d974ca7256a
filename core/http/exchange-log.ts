/**
 * What of an exchange goes into the raw exchange log and the Playwright attachment: bounded
 * bodies, and everything redacted — response bodies and headers can carry secrets too (a key
 * issued by a rotation, a signing secret echoed by a misbehaving deployment).
 *
 * A JSON answer is logged whole only while it is small and shallow; a larger one (a 10 MiB list
 * of a long-lived staging, an array nested ten thousand deep) is logged as its first SHOWN_CHARS
 * characters, its size and its inferred shape — what the behaviour snapshot reads of it
 * (report/snapshot.ts) — so neither the log nor its redaction grows with the target's data.
 */
import type { Exchange } from '../checks/types.ts';
import { redactValue } from '../redact.ts';
import { SHOWN_CHARS, SHOWN_DEPTH, jsonDepth, shownText } from '../shown.ts';
import { shapeOf } from '../snapshot/shape.ts';

/** Answers up to this many characters (and SHOWN_DEPTH levels) are logged as parsed JSON. */
export const LOGGED_JSON_CHARS = 64 * 1024;
/** Characters of a request body, a URL or a header value logged. */
const LOGGED_LINE = 300;

export function loggableExchange(ex: Exchange) {
  const r = ex.response;
  const whole =
    r !== undefined &&
    r.json !== undefined &&
    r.bodyText.length <= LOGGED_JSON_CHARS &&
    jsonDepth(r.json, SHOWN_DEPTH) <= SHOWN_DEPTH;
  const large = r !== undefined && r.json !== undefined && !whole;
  return redactValue({
    method: ex.request.method,
    url: shownText(ex.request.url, SHOWN_CHARS),
    operation: ex.operation ? `${ex.operation.method} ${ex.operation.template}` : undefined,
    requestBody:
      ex.request.body === undefined ? undefined : shownText(ex.request.body, LOGGED_LINE),
    status: r?.status,
    headers: r
      ? Object.fromEntries(
          Object.entries(r.headers).map(([k, v]) => [k, shownText(String(v), SHOWN_CHARS)]),
        )
      : undefined,
    json: whole ? r.json : undefined,
    /** The shape of an answer too large to log whole (what the snapshot needs of it). */
    shape: large ? shapeOf(r.json) : undefined,
    bodyPrefix:
      r && r.json === undefined
        ? shownText(r.bodyText, 200)
        : large
          ? shownText(r.bodyText, SHOWN_CHARS)
          : undefined,
    error: ex.error === undefined ? undefined : shownText(ex.error, SHOWN_CHARS),
    durationMs: Math.round(ex.durationMs * 10) / 10,
  });
}
