/**
 * The API key's rate budget as this process sees it, and the one pacing rule of every HTTP path
 * of the harness that talks to the API (the contract client, the contract clean-up, the fuzzers'
 * client). A gate run shares its key with whatever else uses staging and with its own next run,
 * so it must not spend the key's budget and then score the 429s it caused as contract failures.
 *
 * - Before a request: the estimated Remaining is the last X-RateLimit-Remaining seen, minus the
 *   requests in flight, plus a refill of X-RateLimit-Limit/60 per second divided among the
 *   processes sending with the key (the Playwright workers). That refill is only a pacing
 *   heuristic (the token bucket of U24): a deployment that refills otherwise costs a 429 now and
 *   then, waited out below. When the estimate falls to the reserve (the larger of a few requests
 *   per process — each process obeys the server's headers on its own, and every answer corrects
 *   its view — and the key-wide reserve left for others, `--reserve`), the
 *   request waits for the refill — at most `maxPaceWaitMs` at a time, so a deployment whose
 *   headers are wrong costs seconds, not minutes; one whose headers are nonsense (a negative
 *   Remaining) or that keeps granting requests while saying none is left is not paced by its
 *   headers again (429s are still waited out).
 * - After a 429: wait Retry-After (else one refill interval) and retry, within `maxRequestWaitMs`
 *   per request, the caller's deadline, and `maxTotalWaitMs` per key and process. Beyond that the
 *   budget is spent: the caller reports the test as inconclusive, never as a broken rule.
 *
 * One budget per base URL and key per process (`rateBudget`), so every client of a process paces
 * against the same view. Requests that must see a 429 (a test that provokes one) pass
 * `pace: false`. Nothing here prints or keeps a key beyond the map lookup.
 */

/** The rate-limit headers of one answer, as numbers (undefined when absent or not a number). */
export interface RateHeaders {
  limit?: number;
  remaining?: number;
  retryAfterMs?: number;
  /** A Limit below 1 or a negative Remaining: the headers describe no limiter. */
  nonsense?: boolean;
}

type Headers = Readonly<Record<string, string | undefined>>;

/** A header's integer value (optional sign, digits only), else undefined. */
export function intHeader(h: Headers, name: string): number | undefined {
  const raw = h[name]?.trim();
  return raw !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
}

/** Reads X-RateLimit-Limit / -Remaining and Retry-After (seconds, or an HTTP date against Date). */
export function readRateHeaders(h: Headers): RateHeaders {
  const out: RateHeaders = {};
  const limit = intHeader(h, 'x-ratelimit-limit');
  if (limit !== undefined && limit > 0) out.limit = limit;
  const remaining = intHeader(h, 'x-ratelimit-remaining');
  if (remaining !== undefined && remaining >= 0) out.remaining = remaining;
  if ((limit !== undefined && limit < 1) || (remaining !== undefined && remaining < 0))
    out.nonsense = true;
  const ra = h['retry-after']?.trim();
  if (ra !== undefined && /^\d+(\.\d+)?$/.test(ra)) out.retryAfterMs = Number(ra) * 1000;
  else if (ra) {
    // An HTTP date is measured against the deployment's own Date, never the local clock.
    const at = Date.parse(ra);
    const date = h.date ? Date.parse(h.date) : Number.NaN;
    if (Number.isFinite(at) && Number.isFinite(date)) out.retryAfterMs = Math.max(0, at - date);
  }
  return out;
}

/** Thrown by clients that cannot return an answer once the budget is spent (the fuzzers). */
export class RateBudgetExhausted extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RateBudgetExhausted';
  }
}

export interface RateBudgetOptions {
  /** Processes sending with this key at the same time (the Playwright workers). Default 1. */
  sharers: number;
  /** Requests kept in hand per sharer: the most one process may have in flight on a stale view. */
  reservePerSharer: number;
  /**
   * Requests of the key's Remaining left for everyone else (`--reserve`, default 20 % of the
   * burst: core/http/key-budget.ts): pacing waits rather than spend below it. Key-wide: every
   * process keeps it, as each reads the same Remaining.
   */
  keyReserve: number;
  /**
   * The Authorization value (`Bearer <HARNESS_API_KEY>`) whose budget keeps `keyReserve`; the
   * budgets of the run's other keys (the read-only key, the other workspace's) keep only the
   * per-sharer reserve — `--reserve` is that key's, sized to its plan, and a Growth key's 200 would
   * leave a Team key below it from its first request, every one of them waiting. Undefined: every
   * budget keeps it. Set in each process that paces: the run (run/run-all.ts: the fuzz and the
   * probes) and every Playwright worker (contracts/fixtures.ts), which are separate processes.
   */
  reserveFor?: string;
  /** Longest single pacing wait: wrong headers must not stall a run. */
  maxPaceWaitMs: number;
  /** Longest wait of one request, pacing and 429s together. */
  maxRequestWaitMs: number;
  /** Longest wait of this process on this key; after it every 429 is given up at once. */
  maxTotalWaitMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_RATE_BUDGET: RateBudgetOptions = {
  sharers: 1,
  reservePerSharer: 5,
  keyReserve: 0,
  maxPaceWaitMs: 3000,
  maxRequestWaitMs: 20_000,
  maxTotalWaitMs: 600_000,
  now: () => performance.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/** What a process's budgets did: the request count of a gate run is summed from these. */
export interface RateStats {
  /** Requests sent to the API (429 retries included). */
  sent: number;
  /** 429 answers the paced requests received (one provoked on purpose, `pace: false`, is not). */
  rateLimited: number;
  /** 429s waited out and retried. */
  retried: number;
  /** Time spent waiting: pacing and 429s. */
  waitedMs: number;
  /** Requests given up because the budget was spent (reported as inconclusive). */
  inconclusive: number;
}

export const emptyRateStats = (): RateStats => ({
  sent: 0,
  rateLimited: 0,
  retried: 0,
  waitedMs: 0,
  inconclusive: 0,
});

/** Sums stats (of several processes or areas); `sign` -1 takes `b` away (an earlier reading). */
export function addRateStats(a: RateStats, b: Partial<RateStats>, sign = 1): RateStats {
  const sum = { ...a };
  for (const k of Object.keys(sum) as Array<keyof RateStats>) sum[k] += sign * (b[k] ?? 0);
  return sum;
}

/** One answer as the budget needs it: its status (undefined: no answer) and headers. */
export interface AnswerView {
  status?: number;
  headers?: Headers;
}

export interface PacedOptions {
  /** Wait for the budget before sending and retry a 429. Default true; false sends once, as is. */
  pace?: boolean;
  /** Time (on the budget's clock) after which no wait may end: the caller's own deadline. */
  deadline?: number;
  /** Told of each wait before it starts (a test extends its own time limit by it). */
  onWait?: (ms: number) => void;
  /** 429s waited out at most, then the answer is given up (`exhausted`). Default: no cap. */
  maxRetries?: number;
}

export interface Paced<T> {
  result: T;
  /** 429s waited out before this answer. */
  retried: number;
  /** Set when the answer is a 429 the budget could not wait out: why (for "inconclusive"). */
  exhausted?: string;
}

export class RateBudget {
  readonly stats: RateStats = emptyRateStats();
  /** The lowest X-RateLimit-Remaining an answer showed: whether the run kept its reserve. */
  lowestRemaining: number | undefined;
  private limit: number | undefined;
  private remaining: number | undefined;
  private observedAt = 0;
  private inFlight = 0;
  /** False once the headers proved not to describe the limiter: pacing on them would only stall. */
  private headersPredict = true;
  /** Granted answers in a row that said no request was left. */
  private grantsAtZero = 0;
  /** Set once this process's total wait is spent: every later 429 is given up at once. */
  private spent: string | undefined;

  constructor(private readonly o: RateBudgetOptions = DEFAULT_RATE_BUDGET) {}

  /** Whole requests left for this process, as estimated now; undefined before any header. */
  estimate(share = this.o.sharers): number | undefined {
    if (this.limit === undefined || this.remaining === undefined) return undefined;
    const refill = ((this.o.now() - this.observedAt) * this.limit) / 60_000 / share;
    return this.remaining + refill - this.inFlight;
  }

  /** How long to wait before the next request (0: send now). */
  paceMs(): number {
    const est = this.estimate();
    if (est === undefined || !this.headersPredict) return 0;
    const reserve = Math.max(this.o.reservePerSharer * this.o.sharers, this.o.keyReserve);
    if (est >= reserve + 1) return 0;
    const perMs = this.limit! / 60_000 / this.o.sharers;
    return Math.min(this.o.maxPaceWaitMs, Math.ceil((reserve + 1 - est) / perMs));
  }

  /** Takes in one answer's headers. */
  observe(a: AnswerView): void {
    if (!a.headers || a.status === undefined) return;
    const h = readRateHeaders(a.headers);
    if (h.nonsense) this.headersPredict = false;
    if (h.limit !== undefined) this.limit = h.limit;
    if (h.remaining === undefined) return;
    // Requests granted one after another while every answer says none is left: the headers do
    // not describe the limiter (a paced client would have seen the refill), so do not wait on them.
    const granted = a.status >= 200 && a.status < 300;
    this.grantsAtZero = granted && h.remaining === 0 ? this.grantsAtZero + 1 : 0;
    if (this.grantsAtZero >= 3) this.headersPredict = false;
    this.remaining = h.remaining;
    // A 429's Remaining (0) is the limiter refusing, not the run spending below its reserve.
    if (a.status !== 429)
      this.lowestRemaining = Math.min(this.lowestRemaining ?? h.remaining, h.remaining);
    this.observedAt = this.o.now();
  }

  /** How long to wait after a 429 before retrying it. */
  retryWaitMs(headers: Headers | undefined): number {
    const h = readRateHeaders(headers ?? {});
    if (h.retryAfterMs !== undefined) return Math.max(50, h.retryAfterMs);
    const limit = h.limit ?? this.limit;
    // No Retry-After (U22 assumes one): one refill interval of this process's share, else 1 s.
    return limit ? Math.ceil((60_000 / limit) * this.o.sharers) : 1000;
  }

  /**
   * Sends `attempt` paced: waits for the budget, sends, and waits out and retries a 429 while
   * the allowances last. The answer is the last one; `exhausted` says why a 429 was given up.
   */
  async send<T>(
    attempt: () => Promise<T>,
    view: (r: T) => AnswerView,
    opts: PacedOptions = {},
  ): Promise<Paced<T>> {
    const pace = opts.pace !== false;
    const started = this.o.now();
    let retried = 0;
    // Right after a 429's wait the deployment's own Retry-After has been obeyed: no pacing on top.
    let obeyed = false;
    // The time this request may still wait: its own allowance, the caller's deadline and what
    // is left of the process's total.
    const allowance = () =>
      Math.min(
        this.o.maxRequestWaitMs - (this.o.now() - started),
        (opts.deadline ?? Number.POSITIVE_INFINITY) - this.o.now(),
        this.o.maxTotalWaitMs - this.stats.waitedMs,
      );
    const wait = async (ms: number) => {
      if (ms <= 0) return;
      opts.onWait?.(ms);
      this.stats.waitedMs += ms;
      const at = Date.now();
      waits.push([at, at + ms]);
      await this.o.sleep(ms);
    };
    for (;;) {
      if (pace && !obeyed) await wait(Math.min(this.paceMs(), Math.max(0, allowance())));
      this.inFlight++;
      this.stats.sent++;
      let result: T;
      try {
        result = await attempt();
      } finally {
        this.inFlight--;
      }
      const a = view(result);
      this.observe(a);
      if (a.status !== 429) return { result, retried };
      // A request sent as is provoked its 429 on purpose (a test of what a refusal says): the
      // test's finding, not a cost of the pacing.
      if (!pace) return { result, retried };
      this.stats.rateLimited++;
      const ms = this.retryWaitMs(a.headers);
      const left = allowance();
      if (this.spent || ms > left || retried >= (opts.maxRetries ?? Number.POSITIVE_INFINITY)) {
        this.stats.inconclusive++;
        if (!this.spent && this.stats.waitedMs + ms > this.o.maxTotalWaitMs)
          this.spent = `this process already waited ${seconds(this.stats.waitedMs)} for the key's rate limit`;
        const why =
          this.spent ??
          `waited ${seconds(this.o.now() - started)} for this request, and the deployment asks for ${seconds(ms)} more`;
        return {
          result,
          retried,
          exhausted: `inconclusive: the API key's rate limit is spent (429 after ${retried} retries; ${why}) — not a contract failure`,
        };
      }
      retried++;
      this.stats.retried++;
      await wait(ms);
      obeyed = true;
    }
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// --- the process's budgets ---------------------------------------------------------------------

/**
 * Every wait of this process's budgets, as [start, end] epoch ms: waits of several requests (or
 * processes) at the same time overlap, so the run's time waited is their union
 * (run/request-count.ts), not the sum of `waitedMs`.
 */
const waits: Array<[number, number]> = [];

/** This process's waits so far ([start, end] epoch ms). */
export const processWaits = (): Array<[number, number]> => waits.map(([a, b]) => [a, b]);

let processOptions: RateBudgetOptions = DEFAULT_RATE_BUDGET;
const budgets = new Map<string, RateBudget>();

/**
 * Sets how this process paces, before its first request: `sharers` = the Playwright worker count
 * in a contract worker; the defaults elsewhere. Budgets made earlier keep their options.
 */
export function configureRateBudgets(o: Partial<RateBudgetOptions>): void {
  processOptions = { ...processOptions, ...o };
}

/** The budget of one key (its Authorization header value; none: the anonymous one) at `baseUrl`. */
export function rateBudget(baseUrl: string, authorization: string | undefined): RateBudget {
  const id = `${new URL(baseUrl).origin}\u0000${authorization ?? ''}`;
  if (!budgets.has(id)) {
    const own =
      processOptions.reserveFor === undefined || processOptions.reserveFor === authorization;
    budgets.set(id, new RateBudget(own ? processOptions : { ...processOptions, keyReserve: 0 }));
  }
  return budgets.get(id)!;
}

/** The process's request statistics, over every key. */
export function processRateStats(): RateStats {
  let s = emptyRateStats();
  for (const b of budgets.values()) s = addRateStats(s, b.stats);
  return s;
}
