/**
 * A curl command reproducing an exchange, that runs as pasted into a POSIX shell: every secret
 * becomes the environment variable the user holds it in (`$HARNESS_API_KEY`,
 * `$HARNESS_READONLY_KEY`, `$HARNESS_OTHER_WORKSPACE_KEY`: the key actually sent, named when it
 * was registered, core/redact.ts), so the replay sends the same request. Headers are
 * double-quoted so those variables expand; the body and the URL are single-quoted (taken
 * literally) with any variable spliced in double quotes. A secret without a variable stays
 * masked (and the repro says it cannot be replayed as is); a key the harness invented to be
 * refused (`sk_harness_invalid_…`) is shown as sent.
 *
 * A request rarely reproduces alone: it names objects the test created before it, in a state
 * the test's earlier writes left them in — on an embedded deployment that is gone when the run
 * ends, and on any deployment once the run's clean-up closed them. So a repro replays the test's
 * way there first (`earlier`): its writes that were granted, the refused ones that named the same
 * objects, and the reads a value it sends came from, each object's id caught in a shell variable
 * (`TICKET=$(curl … | node -p '….id')`) and spliced where the run sent the literal id.
 *
 * The embedded deployment's base URL is written `$HARNESS_BASE_URL` (registered by
 * `resolveTarget`, `nameInRepros`): such a run's repros replay against `npm run serve`, whose
 * credentials file sets it; the report says how, once (report/replay.ts). A real target's URL
 * stays literal: its repros run as pasted.
 */
import { redact, secretVariable, secretsIn } from '../redact.ts';
import { SHOWN_REPRO, shownText } from '../shown.ts';
import type { Exchange } from './types.ts';

/** A run of literal text, or a reference to an environment variable. */
type Piece = { text: string } | { variable: string };

/** Values repros write as a variable, not a secret: the embedded deployment's base URL. */
const named = new Map<string, string>();

/** From now on repros of this process write `value` as `$variable` (e.g. HARNESS_BASE_URL). */
export function nameInRepros(value: string, variable: string): void {
  if (value) named.set(value, variable);
}

/** `[value, variable]` pairs a repro substitutes, besides secrets. */
type Substitution = readonly [value: string, variable: string];

/** Splits `value` at every registered secret (named: a variable; else a mask) and substitution. */
function pieces(value: string, secrets: readonly string[], subs: readonly Substitution[]): Piece[] {
  let out: Piece[] = [{ text: value }];
  const splitAt = (needle: string, as: Piece) => {
    out = out.flatMap((p): Piece[] => {
      if (!('text' in p) || !p.text.includes(needle)) return [p];
      return p.text.split(needle).flatMap((t, i) => [...(i > 0 ? [as] : []), { text: t }]);
    });
  };
  for (const s of secrets) {
    const name = secretVariable(s);
    splitAt(s, name ? { variable: name } : { text: '[REDACTED]' });
  }
  for (const [v, name] of [...subs].sort((a, b) => b[0].length - a[0].length))
    splitAt(v, { variable: name });
  // Literal text is redacted by shape too (an unregistered bearer token, a signature).
  return out
    .map((p) => ('text' in p ? { text: redact(p.text) } : p))
    .filter((p) => !('text' in p) || p.text !== '');
}

/** `$NAME`, braced when the next character would extend the name. */
const variableRef = (name: string, next: string | undefined) =>
  next !== undefined && /^[A-Za-z0-9_]/.test(next) ? `\${${name}}` : `$${name}`;

const firstChar = (p: Piece | undefined) => (p && 'text' in p ? p.text[0] : undefined);

/**
 * One double-quoted shell word: `"`, `$`, backtick and backslash escaped in literal text, so only
 * the variables expand. `!` is put in single quotes: interactive bash expands it even inside
 * double quotes (history), which would break a pasted command.
 */
export function doubleQuoted(ps: readonly Piece[]): string {
  const body = ps
    .map((p, i) =>
      'text' in p
        ? p.text
            .replace(/[\\"$`]/g, (c) => `\\${c}`)
            .split('!')
            .join(`"'!'"`)
        : variableRef(p.variable, firstChar(ps[i + 1])),
    )
    .join('');
  return `"${body}"`;
}

/** One shell word of literal text in single quotes, variables spliced in double quotes. */
export function singleQuoted(ps: readonly Piece[]): string {
  if (ps.length === 0) return "''";
  return ps
    .map((p) =>
      'text' in p
        ? `'${p.text.replace(/'/g, `'\\''`)}'`
        : `"${variableRef(p.variable, undefined)}"`,
    )
    .join('');
}

/** Characters of the body a repro carries; longer ones are cut (and say their size). */
const REPRO_BODY = 2000;
/** Characters of a URL or header line: a target's cursor or ETag may be any size. */
const REPRO_LINE = 4096;

/**
 * Whether the request is in the repro as sent: its body and URL not cut, the body not a
 * byte-count placeholder. A step that is not cannot be replayed (its answer would differ).
 */
const replayable = (ex: Exchange) => {
  const b = ex.request.body;
  return (
    ex.request.url.length <= REPRO_LINE &&
    (b === undefined || (b.length <= REPRO_BODY && !/^<\d+ bytes>$/.test(b)))
  );
};

/** The curl words of `ex` (without the `curl` itself), secrets and `subs` as variables. */
function curlWords(
  ex: Exchange,
  subs: readonly Substitution[],
): { words: string[]; masked: boolean } {
  const { method, url, headers, body } = ex.request;
  // Cut before anything else reads them, and never through a secret (shown.ts).
  const sentBody = body === undefined ? undefined : shownText(body, REPRO_BODY);
  const sentUrl = shownText(url, REPRO_LINE);
  const lines = Object.entries(headers)
    .filter(([k]) => k !== 'content-length' && k !== 'host')
    .map(([k, v]) => shownText(`${k}: ${v}`, REPRO_LINE));
  const secrets = secretsIn([sentUrl, ...lines, sentBody ?? ''].join('\n'));
  const masked = secrets.some((s) => !secretVariable(s));
  const words = ['-X', method];
  for (const line of lines) words.push('-H', doubleQuoted(pieces(line, secrets, subs)));
  if (sentBody !== undefined)
    words.push('--data-raw', singleQuoted(pieces(sentBody, secrets, subs)));
  const target = ex.request.requestTarget;
  if (target !== undefined)
    words.push(
      '--request-target',
      singleQuoted(pieces(shownText(target, REPRO_LINE), secrets, subs)),
    );
  words.push(singleQuoted(pieces(sentUrl, secrets, subs)));
  return { words, masked };
}

const isRead = (ex: Exchange) => /^(GET|HEAD)$/i.test(ex.request.method);
const granted = (ex: Exchange) => {
  const s = ex.response?.status;
  return s !== undefined && s >= 200 && s < 300;
};
const requestText = (ex: Exchange) => `${ex.request.url}\n${ex.request.body ?? ''}`;

/** A value an earlier answer gave, where in its JSON (`.id`, `.data[2].id`, `.next_cursor`). */
interface Source {
  value: string;
  at: number;
  path: string;
  /** What it names (TICKET, CONTACT, MACRO, CURSOR…): the variable a replay catches it in. */
  kind: string;
}

/** TICKET for /v1/tickets, CONTACT for /v1/contacts/…, MESSAGE for …/messages. */
function kindOf(url: string): string {
  let segs: string[];
  try {
    segs = new URL(url).pathname.split('/').filter(Boolean);
  } catch {
    return 'ID';
  }
  const word = [...segs].reverse().find((s) => /^[a-z]+s$/.test(s)) ?? 'id';
  return word.replace(/s$/, '').toUpperCase();
}

/**
 * The values earlier answers gave that a later request may send back: the id of what a write
 * created, the ids of a list, a next cursor. Each is caught where it first appeared, unless the
 * request that got it had sent it itself. One pass over a test's exchanges, kept while the test
 * adds to them: every failure of the test reads the same map (linear in the exchanges).
 */
const sourceCache = new WeakMap<
  readonly Exchange[],
  { upTo: number; found: Map<string, Source> }
>();
function sourcesOf(history: readonly Exchange[]): Map<string, Source> {
  const cached = sourceCache.get(history);
  const found = cached?.found ?? new Map<string, Source>();
  const add = (value: unknown, at: number, path: string, kind: string) => {
    // An id longer than a URL line is shown cut (REPRO_LINE): no request sends it replayably.
    if (typeof value !== 'string' || value.length < 6 || value.length > REPRO_LINE) return;
    if (found.has(value)) return;
    if (requestText(history[at]!).includes(value)) return;
    found.set(value, { value, at, path, kind });
  };
  for (let at = cached?.upTo ?? 0; at < history.length; at++) {
    const ex = history[at]!;
    if (!granted(ex)) continue;
    const j = ex.response?.json as Record<string, unknown> | undefined;
    if (!j || typeof j !== 'object') continue;
    const kind = kindOf(ex.request.url);
    if (!isRead(ex)) add(j.id, at, '.id', kind);
    if (Array.isArray(j.data))
      for (const [i, row] of j.data.entries())
        add((row as { id?: unknown } | null)?.id, at, `.data[${i}].id`, kind);
    add(j.next_cursor, at, '.next_cursor', 'CURSOR');
  }
  sourceCache.set(history, { upTo: history.length, found });
  return found;
}

/**
 * The indexes of the exchanges before `end` that lead to a request sending `text`: see the file
 * comment. `sources` are those found before `end`.
 */
function stepsTo(
  text: string,
  history: readonly Exchange[],
  end: number,
  sources: readonly Source[],
): number[] | undefined {
  const needs = (t: string) => sources.filter((s) => t.includes(s.value));
  const wanted = new Set(needs(text).map((s) => s.value));
  const queue: number[] = needs(text).map((s) => s.at);
  for (let i = 0; i < end; i++) {
    const ex = history[i]!;
    if (isRead(ex) || !ex.response) continue;
    // The state the test built, and refused writes that named the same objects (a refusal may
    // still have written: that is what some checks look for).
    if (granted(ex) || needs(requestText(ex)).some((s) => wanted.has(s.value))) queue.push(i);
  }
  // Where every value a step or the request sends came from, transitively.
  const steps = new Set<number>();
  while (queue.length > 0) {
    const i = queue.pop()!;
    if (steps.has(i)) continue;
    steps.add(i);
    // A way too long to paste (a cursor walk's hundredth page): the request alone, said so.
    if (steps.size > MAX_STEPS) return undefined;
    for (const s of needs(requestText(history[i]!))) if (s.at < i) queue.push(s.at);
  }
  return [...steps].sort((a, b) => a - b);
}

/** The most requests a repro replays before its own. */
const MAX_STEPS = 20;

/** `node -p` reading the answer on stdin and printing the value at `path`. */
const pick = (path: string) => `node -p 'JSON.parse(require("fs").readFileSync(0, "utf8"))${path}'`;

/**
 * The repro of `ex`. `history`: the exchanges its test sent, in order (ex among them); the repro
 * replays those that lead to it first. Without it (or when ex is not in it): the request alone.
 */
export function curlRepro(ex: Exchange, history: readonly Exchange[] = []): string {
  const end = history.indexOf(ex);
  const all = end > 0 ? sourcesOf(history) : new Map<string, Source>();
  const sources = [...all.values()].filter((s) => s.at < end);
  const way = end > 0 ? stepsTo(requestText(ex), history, end, sources) : [];
  const steps = way ?? [];
  const usedLater = (s: Source) =>
    requestText(ex).includes(s.value) ||
    steps.some((i) => i > s.at && requestText(history[i]!).includes(s.value));
  const caught = new Map<number, Source[]>();
  for (const s of sources)
    if (steps.includes(s.at) && usedLater(s)) caught.set(s.at, [...(caught.get(s.at) ?? []), s]);
  const catches = [...caught.values()].flat();
  // Named in the order they are caught: TICKET, TICKET_2, …
  const variable = new Map<Source, string>();
  const counts = new Map<string, number>();
  for (const c of catches) {
    const n = (counts.get(c.kind) ?? 0) + 1;
    counts.set(c.kind, n);
    variable.set(c, n === 1 ? c.kind : `${c.kind}_${n}`);
  }
  /** What a request sent at `i` may name by variable: the base URL, and values caught before it. */
  const subsAt = (i: number): Substitution[] => [
    ...named,
    ...catches.filter((s) => s.at < i).map((s) => [s.value, variable.get(s)!] as const),
  ];
  let masked = false;
  const lines: string[] = [];
  for (const i of steps) {
    const step = history[i]!;
    if (!replayable(step)) {
      lines.push(
        `# (not replayed: ${step.request.method} ${new URL(step.request.url).pathname} sent a body or URL too large to show here)`,
      );
      continue;
    }
    const c = curlWords(step, subsAt(i));
    masked ||= c.masked;
    const got = caught.get(i) ?? [];
    const silent = ['curl', '-s', ...c.words].join(' ');
    if (got.length === 0) lines.push(['curl', '-s', '-o', '/dev/null', ...c.words].join(' '));
    else if (got.length === 1)
      lines.push(`${variable.get(got[0]!)}=$(${silent} | ${pick(got[0]!.path)})`);
    else {
      // Several values from one answer: it is kept once, each picked from it.
      lines.push(`answer=$(${silent})`);
      for (const s of got)
        lines.push(`${variable.get(s)}=$(printf '%s' "$answer" | ${pick(s.path)})`);
    }
  }
  let last = curlWords(ex, subsAt(Math.max(end, 0)));
  let alone: string | undefined = way ? undefined : `more than ${MAX_STEPS} requests`;
  // The whole replay is shown uncut or not at all: a repro cut at SHOWN_REPRO (core/shown.ts)
  // would stop mid-command. Too long, it is the request alone, its URL as the run sent it.
  const length = lines.reduce((n, l) => n + l.length + 1, 0) + last.words.join(' ').length;
  if (!alone && length > SHOWN_REPRO - 1024) {
    alone = 'too long to show';
    lines.length = 0;
    masked = false;
    last = curlWords(ex, [...named]);
  }
  masked ||= last.masked;
  lines.push(['curl', '-i', ...last.words].join(' '));
  if (alone)
    lines.unshift(
      `# the request alone: the test's way to it is ${alone} (its objects must exist first)`,
    );
  if (masked)
    lines.unshift(
      '# sent with a key the run issued and did not keep ([REDACTED]): not replayable as it stands',
    );
  return lines.join('\n');
}
