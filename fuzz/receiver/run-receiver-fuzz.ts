/**
 * Black-box fuzz of any webhook receiver: the properties of `properties.ts`, each run with
 * fast-check over real HTTP, bounded in cases, rate and time. Returns a JSON-serialisable result
 * for reports; each failure carries the minimal counterexample as a redacted HTTP transcript
 * (no signature value in it: each is named by what it is, "signed with $SECRET_ENV") and, when
 * a valid signature was refused, the cause re-signed requests prove (diagnose.ts).
 *
 * A documented property that fails fails the run; an assumed one is a warning with its reason,
 * failing the run only with `strict`.
 */
import fc from 'fast-check';
import { fuzzSeed } from '../shared/seed.ts';
import { redact, registerSecret } from '../../core/redact.ts';
import { SIGNATURE_FORMS, type SignatureForm } from '../../core/signature/index.ts';
import type { Provenance } from '../../core/spec/operations.ts';
import { createPacer } from '../../core/http/pacer.ts';
import { diagnoseRefusal } from './diagnose.ts';
import {
  expectsAuthentication,
  type PropertyContext,
  RECEIVER_PROPERTIES,
  type ReceiverProperty,
} from './properties.ts';
import { renderTranscript, type Signing } from '../shared/transcript.ts';
import { createClient, type WireOutcome, type WireRequest } from '../shared/wire.ts';

/** Options of {@link runReceiverFuzz}. */
export interface ReceiverFuzzOptions {
  /** The receiver's URL (http or https). */
  url: string;
  /** The signing secret the receiver verifies with. Registered for redaction. */
  secret: string;
  /** Header form(s) the receiver is expected to accept. Default `both`. */
  form?: SignatureForm | 'both';
  /** Cases per property (fast-check `numRuns`, shrinking not counted). Default 50. */
  cases?: number;
  /** Wall-clock budget of the whole run in seconds; properties not started in time are skipped. Default 120. */
  maxSeconds?: number;
  /** Most requests per second, over the whole run. Default 50; `Infinity` for none. */
  rate?: number;
  /** Seed; default `FC_SEED` or the harness default. */
  seed?: number;
  /** Per-request timeout in ms. Default 10000. */
  timeoutMs?: number;
  /** Run only the properties with these names. Default: all. */
  only?: readonly string[];
  /** Assumed properties fail the run too (`--strict`). Default false: they are warnings. */
  strict?: boolean;
  /** How reports name the secret, e.g. `$HOOK_SECRET` (`--secret-env`). Default `the secret`. */
  secretLabel?: string;
  /** Called after each property, for progress output. */
  onResult?: (result: PropertyResult) => void;
}

export interface PropertyResult {
  /** Property name (stable). */
  name: string;
  /** The form under test, or null for form-independent properties. */
  form: SignatureForm | null;
  rule: string;
  /** `documented` fails the run; `assumed` warns (fails only with --strict). */
  provenance: Provenance;
  /** Why an assumed property is only assumed. */
  why?: string;
  status: 'passed' | 'failed' | 'skipped';
  /** The property held (or was skipped); an assumed property that failed is `false` here too. */
  passed: boolean;
  /** Cases run (shrinking excluded). */
  cases: number;
  /** Requests sent, shrinking included. */
  requests: number;
  shrinks: number;
  /** Failure reason of the minimal counterexample ("Received … ; expected …"). */
  reason?: string;
  /** For a refused valid signature: the cause re-signed requests prove, or that none explains it. */
  cause?: string;
  /** The minimal counterexample as an HTTP transcript, secrets redacted. */
  counterexample?: string;
  /** Set when the time budget cut the property short. */
  interrupted?: boolean;
}

export interface ReceiverFuzzResult {
  /** The URL with any userinfo removed. */
  url: string;
  forms: SignatureForm[];
  seed: number;
  /** Assumed properties counted as failures (`--strict`). */
  strict: boolean;
  /** No property that counts failed: no documented one, and with `strict` no assumed one. */
  passed: boolean;
  /** Property runs that failed and count (documented; assumed too with `strict`). */
  failed: number;
  /** Assumed property runs that failed without `strict`: reported, not failing the run. */
  warnings: number;
  startedAt: string;
  durationMs: number;
  requests: number;
  properties: PropertyResult[];
}

/** The property runs (property × form) a run with `forms` consists of, in order. */
export function plannedRuns(forms: readonly SignatureForm[], only?: readonly string[]) {
  const runs: Array<{ property: ReceiverProperty; form: SignatureForm | null }> = [];
  for (const property of RECEIVER_PROPERTIES) {
    if (only && !only.includes(property.name)) continue;
    if (property.scope === 'each-form') for (const form of forms) runs.push({ property, form });
    else if (property.scope === 'once') runs.push({ property, form: null });
    else if (forms.length > 1) runs.push({ property, form: null });
  }
  return runs;
}

/** What every property run of one fuzz shares. */
interface Run {
  url: URL;
  secret: string;
  forms: SignatureForm[];
  seed: number;
  cases: number;
  deadline: number;
  pace: () => Promise<void>;
  client: ReturnType<typeof createClient>;
  signing: Signing;
}

/** What one property run has seen so far: requests sent, and the last failing case. */
interface Seen {
  requests: number;
  failure?: { reason: string; transcript: string; req: WireRequest; outcome: WireOutcome };
}

/** Whether a failed property run fails the whole run. */
export function counts(p: Pick<PropertyResult, 'status' | 'provenance'>, strict: boolean) {
  return p.status === 'failed' && (p.provenance === 'documented' || strict);
}

export async function runReceiverFuzz(options: ReceiverFuzzOptions): Promise<ReceiverFuzzResult> {
  const { url, forms, rate, timeoutMs, ...checked } = checkOptions(options);
  const seed = options.seed ?? fuzzSeed();
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const deadline = started + checked.maxSeconds * 1000;
  const client = createClient(url, timeoutMs);
  const signing = { secret: checked.secret, label: options.secretLabel ?? 'the secret' };
  const pace = createPacer(rate);
  const run: Run = { ...checked, url, forms, seed, deadline, pace, client, signing };
  const runs = plannedRuns(forms, options.only);
  const results: PropertyResult[] = [];
  let totalRequests = 0;
  try {
    await probe(run);
    totalRequests++;
    for (const [i, { property, form }] of runs.entries()) {
      const result = await runProperty(run, property, form, runs.length - i);
      totalRequests += result.requests;
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    client.close();
  }
  const safeUrl = new URL(url.href);
  safeUrl.username = '';
  safeUrl.password = '';
  const strict = options.strict ?? false;
  const failed = results.filter((r) => counts(r, strict)).length;
  return {
    url: safeUrl.href,
    forms,
    seed,
    strict,
    passed: failed === 0,
    failed,
    warnings: results.filter((r) => r.status === 'failed').length - failed,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    requests: totalRequests,
    properties: results,
  };
}

/** The options with their defaults, the URL parsed and the forms spelled out; misuse throws. */
function checkOptions(options: ReceiverFuzzOptions) {
  const { secret, cases = 50, maxSeconds = 120, rate = 50, timeoutMs = 10_000 } = options;
  if (!secret) throw new Error('receiver fuzz: the secret is empty');
  if (!Number.isInteger(cases) || cases < 1)
    throw new Error(`cases must be a positive integer, got ${cases}`);
  if (!(maxSeconds > 0)) throw new Error(`max-seconds must be positive, got ${maxSeconds}`);
  registerSecret(secret);
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new Error(`not a URL: ${options.url}`);
  }
  const forms: SignatureForm[] =
    !options.form || options.form === 'both' ? [...SIGNATURE_FORMS] : [options.form];
  const known = new Set(RECEIVER_PROPERTIES.map((p) => p.name));
  const unknown = (options.only ?? []).filter((n) => !known.has(n));
  if (unknown.length > 0)
    throw new Error(
      `unknown receiver propert${unknown.length > 1 ? 'ies' : 'y'}: ${unknown.join(', ')}`,
    );
  return { secret, cases, maxSeconds, rate, timeoutMs, url, forms };
}

/** An unreachable receiver is misuse (wrong URL, not started), not forty failed properties. */
async function probe(run: Run): Promise<void> {
  const outcome = await run.client.send({
    method: 'POST',
    headers: [['Content-Type', 'application/json']],
    body: new TextEncoder().encode('{}'),
    framing: { kind: 'content-length' },
    notes: [],
  });
  if ('error' in outcome)
    throw new Error(`cannot reach the receiver at ${run.url.origin}: ${outcome.error}`);
}

/** One property in one form (or none), in a fair share of the time left; skipped when none is. */
async function runProperty(
  run: Run,
  property: ReceiverProperty,
  form: SignatureForm | null,
  runsLeft: number,
): Promise<PropertyResult> {
  const remaining = run.deadline - performance.now();
  const base = {
    name: property.name,
    form,
    rule: property.rule,
    provenance: property.provenance,
    ...(property.why ? { why: property.why } : {}),
  };
  if (remaining <= 0)
    return { ...base, status: 'skipped', passed: true, cases: 0, requests: 0, shrinks: 0 };
  const ctx: PropertyContext = {
    secret: run.secret,
    form: form ?? run.forms[0]!,
    forms: run.forms,
  };
  const seen: Seen = { requests: 0 };
  const prop = fc.asyncProperty(property.cases(ctx), caseCheck(run, property, form, seen));
  // Leave each remaining property a fair share of the budget, shrinking included.
  const share = Math.max(1000, Math.floor(remaining / runsLeft) * 2);
  // Cases every run must include go first as fast-check examples (they count towards
  // numRuns, so it grows to hold them all).
  const examples = (property.coverage?.(ctx) ?? []).map(
    (arb, k) => [fc.sample(arb, { seed: run.seed + k, numRuns: 1 })[0]!] as [WireRequest],
  );
  const details = await fc.check(prop, {
    seed: run.seed,
    numRuns: Math.max(run.cases, examples.length),
    examples,
    interruptAfterTimeLimit: Math.min(remaining, share),
    markInterruptAsFailure: false,
    maxSkipsPerRun: 20,
  });
  // A failure without a failing response is the harness's own (a bug, or every drawn case
  // unsendable), never something to blame on the receiver. fast-check's own report would print
  // the drawn request, signature values included: only the error is told.
  if (details.failed && !seen.failure)
    throw new Error(
      redact(
        `receiver fuzz: property ${property.name} could not run: ${details.errorInstance ? String(details.errorInstance) : 'no case could be sent'}`,
      ),
    );
  const failure = details.failed ? seen.failure : undefined;
  const cause =
    failure && expectsAuthentication(property)
      ? await diagnoseRefusal(failure.req, failure.outcome, run.secret, async (r) => {
          await run.pace();
          seen.requests++;
          return run.client.send(r);
        })
      : undefined;
  return {
    ...base,
    status: failure ? 'failed' : 'passed',
    passed: !failure,
    cases: details.numRuns,
    requests: seen.requests,
    shrinks: details.numShrinks,
    ...(failure ? { reason: failure.reason, counterexample: failure.transcript } : {}),
    ...(cause ? { cause } : {}),
    ...(details.interrupted ? { interrupted: true } : {}),
  };
}

/**
 * The property per case: send the request (paced), judge the outcome. A failing case is recorded
 * in `seen`; shrinking only moves to failing cases, so the last one recorded is the minimal one.
 */
function caseCheck(
  run: Run,
  property: ReceiverProperty,
  form: SignatureForm | null,
  seen: Seen,
): (req: WireRequest | null) => Promise<boolean> {
  return async (req) => {
    fc.pre(req !== null);
    await run.pace();
    seen.requests++;
    const outcome = await run.client.send(req);
    const reason = property.check(outcome);
    if (reason === undefined) return true;
    const notes = [
      `property: ${property.name}${form ? ` (${form} form)` : ''} [${property.provenance}]`,
      `rule: ${property.rule}`,
      reason,
    ];
    seen.failure = {
      reason,
      transcript: renderTranscript(run.url, req, outcome, notes, [run.secret], run.signing),
      req,
      outcome,
    };
    return false;
  };
}
