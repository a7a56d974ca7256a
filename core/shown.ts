/**
 * What of the target's data the harness shows: bounded before anything else works on it. A
 * long-lived staging answers with 1 MiB one-word subjects, 10 MiB lists and arrays nested ten
 * thousand deep; every report, transcript, repro and log line shows a prefix of such a thing and
 * says how big it was (`… (1048576 bytes, first 4096 shown)`), as Schemathesis keeps a body over
 * 1 MiB as a prefix with its size. Every function here runs in time bounded by what it shows (or
 * linear in the value, for the depth), never recursing over the value, so no depth overflows the
 * stack. A cut never splits a secret (core/redact.ts `safeCut`): the writers redact what is shown.
 */
import type { Failure } from './checks/types.ts';
import { safeCut } from './redact.ts';

/** Characters of a body shown in a report, transcript, repro or log. */
export const SHOWN_CHARS = 4096;
/** Characters of a failure's Received / expected text (checks cut far shorter; this is the bound). */
export const SHOWN_RECEIVED = 4096;
/** Characters of a failure's repro or transcript (a request and an answer of SHOWN_CHARS each). */
export const SHOWN_REPRO = 16_384;
/** Levels of a JSON value kept (logs, probes) before the rest is said, not shown. */
export const SHOWN_DEPTH = 32;
/** Items of an array or keys of an object kept before the rest is counted. */
export const SHOWN_ITEMS = 100;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * `text` itself when it has at most `max` characters; else a prefix cut where no secret (nor one
 * of `extra`) straddles it, followed by `… (N bytes, first M shown)`.
 */
export function shownText(text: string, max = SHOWN_CHARS, extra: readonly string[] = []): string {
  if (text.length <= max) return text;
  const shown = text.slice(0, safeCut(text, max, extra));
  return `${shown}… (${bytes(text)} bytes, first ${bytes(shown)} shown)`;
}

type Frame =
  | { kind: 'array'; items: readonly unknown[]; i: number }
  | { kind: 'object'; obj: Record<string, unknown>; keys: string[]; i: number; any: boolean };

/** A value as JSON.stringify sees it: toJSON applied, and whether it is left out (undefined). */
function jsonable(v: unknown, key: string): unknown {
  if (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as { toJSON?: unknown }).toJSON === 'function'
  )
    return (v as { toJSON: (k: string) => unknown }).toJSON(key);
  return v;
}

const omitted = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * JSON text of `value` up to `max` characters: exactly `JSON.stringify(value)` when that is no
 * longer (`String(value)` where it gives nothing), else its first `max` characters and `…`. It
 * builds only what it shows: a 10 MiB list costs what 200 characters of it cost, and a value
 * nested ten thousand deep (where JSON.stringify overflows the stack) or a cyclic one (where it
 * throws) is shown as far as `max` reaches.
 */
export function boundedJson(value: unknown, max = 200): string {
  let out = '';
  const full = () => out.length > max;
  /** Appends a string literal, escaping only as much of a long string as can still show. */
  const str = (s: string) => {
    const room = max + 1 - out.length;
    if (s.length <= room) {
      out += JSON.stringify(s);
      return;
    }
    let k = room;
    const c = s.charCodeAt(k - 1);
    if (c >= 0xd800 && c <= 0xdbff) k++;
    out += JSON.stringify(s.slice(0, k)).slice(0, -1);
  };
  /** Appends a scalar, or opens a frame for an array or object. */
  const put = (v: unknown, stack: Frame[]) => {
    if (v === null) out += 'null';
    else if (typeof v === 'string') str(v);
    else if (typeof v === 'number') out += Number.isFinite(v) ? String(v) : 'null';
    else if (typeof v === 'boolean') out += String(v);
    else if (typeof v === 'bigint') out += String(v);
    else if (Array.isArray(v)) {
      out += '[';
      stack.push({ kind: 'array', items: v, i: 0 });
    } else {
      out += '{';
      const obj = v as Record<string, unknown>;
      stack.push({ kind: 'object', obj, keys: Object.keys(obj), i: 0, any: false });
    }
  };
  const top = jsonable(value, '');
  const stack: Frame[] = [];
  if (omitted(top)) out = String(value);
  else put(top, stack);
  while (stack.length > 0 && !full()) {
    const f = stack[stack.length - 1]!;
    if (f.kind === 'array') {
      if (f.i >= f.items.length) {
        out += ']';
        stack.pop();
        continue;
      }
      if (f.i > 0) out += ',';
      const v = jsonable(f.items[f.i], String(f.i));
      f.i++;
      if (omitted(v)) out += 'null';
      else put(v, stack);
      continue;
    }
    if (f.i >= f.keys.length) {
      out += '}';
      stack.pop();
      continue;
    }
    const k = f.keys[f.i++]!;
    const v = jsonable(f.obj[k], k);
    if (omitted(v)) continue;
    if (f.any) out += ',';
    f.any = true;
    str(k);
    if (full()) break;
    out += ':';
    put(v, stack);
  }
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/**
 * How deep `value` nests (a scalar is 0, `[]` and `[1]` are 1), counted without recursion and
 * stopping once past `limit`: the answer is then `limit + 1`.
 */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > deepest) deepest = d + 1;
    if (deepest > limit) return limit + 1;
    const children = Array.isArray(v) ? v : Object.values(v as object);
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, d + 1]);
  }
  return deepest;
}

export interface BoundedValueOptions {
  /** Characters of a string kept (shownText). Default 1024. */
  chars?: number;
  /** Items of an array, keys of an object kept. Default SHOWN_ITEMS. */
  items?: number;
  /** Levels kept. Default SHOWN_DEPTH. */
  depth?: number;
}

/**
 * A JSON value of bounded size with what was left out said in place: long strings as shownText,
 * arrays and objects past `items` with a last `"… (N more items)"` / `"…": "N more keys"`, and
 * what nests deeper than `depth` as `"… (nested deeper than D levels)"`. Small values come back
 * equal. Recursion is bounded by `depth`.
 */
export function boundedValue(value: unknown, options: BoundedValueOptions = {}): unknown {
  const { chars = 1024, items = SHOWN_ITEMS, depth = SHOWN_DEPTH } = options;
  const walk = (v: unknown, level: number): unknown => {
    if (typeof v === 'string') return shownText(v, chars);
    if (v === null || typeof v !== 'object') return v;
    if (level >= depth) return `… (nested deeper than ${depth} levels)`;
    if (Array.isArray(v)) {
      const kept = v.slice(0, items).map((x) => walk(x, level + 1));
      if (v.length > items) kept.push(`… (${v.length - items} more items)`);
      return kept;
    }
    const keys = Object.keys(v as object);
    const out: Record<string, unknown> = {};
    for (const k of keys.slice(0, items))
      out[shownText(k, chars)] = walk((v as Record<string, unknown>)[k], level + 1);
    if (keys.length > items) out['…'] = `${keys.length - items} more keys`;
    return out;
  };
  return walk(value, 0);
}

/**
 * A failure whose texts are bounded: what every area files (core/area.ts) and every report
 * renders, whoever built it — a check's Received, a fuzz transcript, a load verdict.
 */
export function boundedFailure(f: Failure): Failure {
  const received = shownText(f.received, SHOWN_RECEIVED);
  const expected = shownText(f.expected, SHOWN_RECEIVED);
  const repro = f.repro === undefined ? undefined : shownText(f.repro, SHOWN_REPRO);
  if (received === f.received && expected === f.expected && repro === f.repro) return f;
  return { ...f, received, expected, ...(repro === undefined ? {} : { repro }) };
}
