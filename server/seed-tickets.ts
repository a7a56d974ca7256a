/**
 * A long-lived deployment (`serve --seed-tickets N`): N old tickets in every seeded workspace, as
 * staging holds after years of people and earlier runs — every status and priority, created in
 * the past (minutes to three years ago), and odd content: emoji, right-to-left text and bidi
 * controls, NUL and other control characters, lone surrogates, markup, pasted logs as subjects,
 * long subjects, a few 300 KB one-word subjects and a few 2 000-tag lists. Some of the oddest are
 * among the most recent, so the first page after a run's own tickets carries them.
 *
 * Deterministic: the same `seed` gives the same tickets (ids, text, times relative to `nowMs`).
 * Written straight into the store, not through HTTP: 3 000 per workspace take well under a second.
 * Every ticket is a valid Ticket of the spec (the deployment stays correct); old tickets are
 * already past their at-risk threshold and announced, so none fires `sla.at_risk` now.
 */
import type { Credentials, SeedName } from './seed.ts';
import { SLA_TARGET_MS } from './sla.ts';
import type { Priority, Status, Store, Ticket } from './store.ts';

export interface SeedTicketsOptions {
  /** Tickets per workspace. */
  perWorkspace: number;
  /** PRNG seed of the content. */
  seed: number;
  /** The service clock's now: tickets are created before it. */
  nowMs: number;
}

/** What one seeding wrote (the serve banner says it). */
export interface SeededTickets {
  total: number;
  /** Tickets with a 300 KB one-word subject, per workspace. */
  huge: number;
  ms: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The one-word subjects' size: larger than any page a sane API would paginate around. */
export const HUGE_SUBJECT_CHARS = 300 * 1024;
/** The huge tag lists' length. */
export const HUGE_TAG_COUNT = 2000;

/** mulberry32: a small, fast, seedable PRNG (uniform in [0, 1)). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

const WORD_CHARS = Buffer.from(
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_',
  'latin1',
);
/** One word of `n` characters of `\w` (the shape that once made a redaction regex quadratic). */
function word(rng: Rng, n: number): string {
  const out = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) out[i] = WORD_CHARS[Math.floor(rng() * WORD_CHARS.length)]!;
  return out.toString('latin1');
}

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ticketId = (rng: Rng) =>
  `tkt_${Array.from({ length: 12 }, () => ID_CHARS[Math.floor(rng() * 64)]).join('')}`;

const VERBS = [
  'Cannot',
  'Unable to',
  'How do I',
  'Please help:',
  'Error when trying to',
  'Why can I not',
];
const OBJECTS = [
  'log in after the password reset',
  'download last month’s invoice',
  'change the billing address',
  'export the report as CSV',
  'add a second admin',
  'cancel my subscription',
  'reach the API from our VPC',
];

/** A pasted log: dozens of stack-trace lines as one subject. */
function pastedLog(r: Rng): string {
  const lines: string[] = [];
  for (let i = int(r, 20, 120); i > 0; i--)
    lines.push(
      `2024-0${int(r, 1, 9)}-1${int(r, 0, 9)}T12:${int(r, 10, 59)}:0${int(r, 0, 9)}.${int(r, 100, 999)}Z ERROR [worker-${int(r, 1, 8)}] java.lang.NullPointerException at com.example.billing.Invoice.render(Invoice.java:${int(r, 10, 999)})`,
    );
  return lines.join('\n');
}

/** The odd subjects, each a function of the PRNG and the ticket's number in its workspace. */
export const ODD_SUBJECTS: ReadonlyArray<(rng: Rng, n: number) => string> = [
  (_r, n) => `🔥 Checkout down 😱 for 👨‍👩‍👧‍👦 family plan 🏳️‍🌈 (👍🏽 #${n})`,
  () => 'لا أستطيع تسجيل الدخول إلى حسابي',
  () => 'ההזמנה שלי לא הגיעה עדיין',
  () => 'invoice \u202Efdp.exe\u202C attached',
  () => 'mixed \u2067عربي\u2069 and English',
  () => 'null\u0000byte in the subject',
  () => 'bell\u0007 and escape \u001b[31mred\u001b[0m text',
  () => 'tab\tand\r\nCRLF inside',
  () => 'NEL\u0085 LS\u2028 PS\u2029 DEL\u007f',
  () => '\ufeffBOM first, zero\u200bwidth',
  () => 'backspace\b\b\b and form feed\f',
  () => 'half a pair \ud83d alone, and a low one \udca9 too',
  () => '<script>alert("harness")</script> & "quotes" \'apos\' ]]> <!-- x -->',
  () => "'; DROP TABLE tickets; -- {{7*7}} $\u007b7*7} %s%n ../../etc/passwd",
  () => '<img src=x onerror=alert(1)><b>bold</b>',
  // A secret-shaped line pasted from a terminal: masked in reports, never breaking them.
  () => 'why does /admin answer 401? I sent X-Admin-Token: adm_pasted_from_a_log',
  () => 'Z̷̡͎a̸̛̰ļ̵̛g̶o̴ text that stacks marks',
  () => 'NFD e\u0301 vs NFC é, ﬁ ligature, İı ß, ＦＵＬＬ ｗｉｄｔｈ, 𝐁𝐨𝐥𝐝',
  () => 'Tiếng Việt, 中文工单, 日本語のチケット, 한국어',
  pastedLog,
  (r) => Array.from({ length: int(r, 50, 400) }, () => pick(r, OBJECTS)).join(' '),
];

export const ODD_NAMES = [
  'Ada Lovelace',
  'José Ñúñez',
  'محمد علي',
  '李小龍',
  'O\'Brien "Bob"',
  'Zoë 👩🏽‍💻',
  '\u202Eeman desrever',
  'Null\u0000Name',
];
const TAGS = ['billing', 'vip', 'bug', 'feature-request', 'urgent', '🔥', 'עברית', 'łódź', 'a b c'];
const STATUSES: Array<[Status, number]> = [
  ['open', 0.4],
  ['pending', 0.2],
  ['on_hold', 0.1],
  ['closed', 0.3],
];
const PRIORITIES: Array<[Priority, number]> = [
  ['low', 0.3],
  ['normal', 0.5],
  ['high', 0.2],
];

function weighted<T>(rng: Rng, table: Array<[T, number]>): T {
  let x = rng();
  for (const [v, w] of table) {
    x -= w;
    if (x < 0) return v;
  }
  return table[table.length - 1]![0];
}

/** Per workspace: which of its tickets (by age rank, 0 = newest) get the huge subject and tag list. */
function hugeSlots(
  rng: Rng,
  count: number,
  huge: number,
): { subject: Set<number>; tags: Set<number> } {
  // One of each among the newest few, the rest anywhere.
  const subject = new Set<number>([Math.min(count - 1, 3)]);
  const tags = new Set<number>([Math.min(count - 1, 5)]);
  while (subject.size < Math.min(huge, count)) subject.add(int(rng, 0, count - 1));
  while (tags.size < Math.min(huge, count)) tags.add(int(rng, 0, count - 1));
  return { subject, tags };
}

function subjectOf(rng: Rng, rank: number, n: number, huge: boolean): string {
  if (huge) return word(rng, HUGE_SUBJECT_CHARS);
  // The newest few dozen: each odd subject once, so a run's first pages meet them all.
  if (rank >= 2 && rank < ODD_SUBJECTS.length + 2) return ODD_SUBJECTS[rank - 2]!(rng, n);
  if (rng() < 0.3) return pick(rng, ODD_SUBJECTS)(rng, n);
  return `${pick(rng, VERBS)} ${pick(rng, OBJECTS)} #${n}`;
}

/** Writes `perWorkspace` old tickets into every seeded workspace of `credentials`. */
export function seedTickets(
  store: Store,
  credentials: Credentials,
  o: SeedTicketsOptions,
): SeededTickets {
  const t0 = performance.now();
  const huge = Math.max(1, Math.round(o.perWorkspace / 1000));
  const made: Ticket[] = [];
  for (const [name, ws] of Object.entries(credentials.workspaces) as Array<
    [SeedName, Credentials['workspaces'][SeedName]]
  >) {
    // Each workspace its own stream: the same tickets whatever the other workspaces hold.
    const rng = prng(o.seed * 7919 + [...name].reduce((h, c) => h * 31 + c.charCodeAt(0), 7));
    const slots = hugeSlots(rng, o.perWorkspace, huge);
    for (let rank = 0; rank < o.perWorkspace; rank++) {
      const n = o.perWorkspace - rank;
      // Newest first by rank: the newest an hour old, the oldest about three years.
      const ageMs = Math.round(60 * MINUTE + (rank / o.perWorkspace) * 3 * 365 * DAY + rng() * DAY);
      const createdAtMs = o.nowMs - ageMs;
      const priority = weighted(rng, PRIORITIES);
      const answered = rng() < 0.8;
      made.push({
        id: ticketId(rng),
        seq: 0,
        workspaceId: ws.id,
        subject: subjectOf(rng, rank, n, slots.subject.has(rank)),
        status: weighted(rng, STATUSES),
        priority,
        requester: { email: `customer${n}@example.com`, name: pick(rng, ODD_NAMES) },
        tags: slots.tags.has(rank)
          ? Array.from({ length: HUGE_TAG_COUNT }, (_, i) => `tag-${i}`)
          : [...new Set(Array.from({ length: int(rng, 0, 4) }, () => pick(rng, TAGS)))],
        createdAtMs,
        updatedAtMs: createdAtMs + Math.floor(rng() * (ageMs - MINUTE)),
        firstResponseDueMs: createdAtMs + SLA_TARGET_MS[priority],
        ...(answered ? { firstResponseAtMs: createdAtMs + int(rng, 1, 120) * MINUTE } : {}),
        // Long past its threshold: announced then (or answered in time), never again now.
        atRiskFired: true,
      });
    }
  }
  // Sequence numbers in creation order, before any ticket a request creates.
  made.sort((a, b) => a.createdAtMs - b.createdAtMs);
  for (const t of made) {
    t.seq = store.nextSeq();
    store.addTicket(t);
  }
  return { total: made.length, huge, ms: Math.round(performance.now() - t0) };
}
