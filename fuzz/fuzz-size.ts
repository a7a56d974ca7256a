/**
 * How much the fuzz area of `harness run` sends, and what that costs the key: the one place its
 * size is chosen and its requests counted before it runs (the cost line, run/cost-estimate.ts).
 *
 * - full (default): 40 API input cases per operation, 10 delivery scenarios — the nightly fuzz.
 * - gate-sized (the default on a Team key, whose burst is 200): each operation's packed sampler
 *   alone (every input class, several to a case; the required fields dropped: packed-sampler.ts),
 *   read once per run of refused writes (api-input.ts), and the hand-made hostile delivery
 *   scenario alone. The catalogue's fuzz faults are caught at this size
 *   (test/fuzz/fuzz-size.test.ts); what it gives up: random cases, every class in every field of
 *   its own case, and random delivery scenarios.
 * - `--fuzz-cases N` / HARNESS_FUZZ_CASES: N API input cases per operation (the sampler always
 *   runs whole), a quarter as many delivery scenarios.
 *
 * The count follows what the fuzzers do on a correct deployment: the input fuzz reads the ticket
 * before and after each write case on it, the ticket count before and once after all the
 * creation cases (a count off there replays them, not counted), creates one target ticket per operation
 * on a ticket, and every creation it got accepted is closed after the area; a delivery scenario is
 * four requests (create, two replies, close), and through an admin surface a flush, beside the
 * endpoints' set-up and removal (`admin`, not with the key). Packed (gate-sized), the reads are those the
 * deferred reads make (gateReads, as api-input.ts orders and reads), the count opened with is the
 * first "before", and the update and message cases share a ticket a creation case left. Shrinking
 * and the replays after a doubt or a failure are not counted.
 */
import fc from 'fast-check';
import type { HarnessConfig, PlanName } from '../core/config.ts';
import { gateOrder, gateReads } from './api-input/gate-reads.ts';
import { operationCases } from './api-input/cases.ts';
import { expectedAccepted } from './arbitraries/body-cases/packed-sampler.ts';
import {
  API_INPUT_OPERATIONS,
  type ApiInputOperation,
  inputOperation,
} from './api-input/operations.ts';
import { fuzzSeed } from './shared/seed.ts';
import { DELIVERY_FORMS } from '../core/signature/index.ts';

export interface FuzzSize {
  /** `fitted`: shrunk to fit `--max-requests` (run/max-requests.ts). */
  name: 'full' | 'gate' | 'cases' | 'fitted';
  /** API input cases per operation (fast-check numRuns; the sampler always whole). */
  inputCases: number;
  /** Random delivery scenarios (the hostile example runs after them). */
  deliveryRuns: number;
  /** Why this size, for the console. */
  why: string;
  /** The API input operations fuzzed (default every one); fewer only to fit `--max-requests`. */
  operations?: readonly ApiInputOperation[];
  /** The packed samplers alone, reads deferred (ApiInputFuzzOptions.packed): the gate size. */
  packed?: boolean;
}

export const FULL_FUZZ = { inputCases: 40, deliveryRuns: 10 } as const;
/** Random delivery scenarios 0: the hostile example alone (it carries what the faults need). */
export const GATE_FUZZ = { inputCases: 1, deliveryRuns: 0, packed: true } as const;

/** The fuzz size of a run: `--fuzz-cases`, else gate-sized on a Team key, else full. */
export function fuzzSize(cfg: Pick<HarnessConfig, 'fuzzCases'>, plan?: PlanName): FuzzSize {
  if (cfg.fuzzCases !== undefined)
    return {
      name: 'cases',
      inputCases: cfg.fuzzCases,
      deliveryRuns: Math.max(1, Math.round(cfg.fuzzCases / 4)),
      why: '--fuzz-cases / HARNESS_FUZZ_CASES',
    };
  if (plan === 'team')
    return {
      name: 'gate',
      ...GATE_FUZZ,
      why: 'gate-sized on a Team key (the packed samplers alone; --fuzz-cases 40 for the full fuzz)',
    };
  return { name: 'full', ...FULL_FUZZ, why: 'full' };
}

/** Kinds of input a correct deployment accepts (and the clean-up then closes). */
const ACCEPTED = new Set(['valid', 'at-limit']);

/** What the fuzz area will send, per fuzzer; all of it with the key but `admin`. */
export interface FuzzPlan {
  apiInput: number;
  delivery: number;
  cleanUp: number;
  /**
   * The delivery check's requests to the admin surface (its endpoints registered and removed,
   * the workspace looked up, a flush per scenario): counted among the requests sent, not charged
   * to the key.
   */
  admin: number;
  total: number;
}

/**
 * The requests of the fuzz area at `size`: `input` and `delivery` say whether those fuzzers run
 * (read-only mode, no webhook endpoints), `admin` whether the delivery check subscribes through
 * an admin surface (the embedded deployment, HARNESS_ADMIN_TOKEN) rather than dashboard endpoints. The random cases are drawn with the run's seed, as the
 * fuzz draws them, to count the creations that will be accepted.
 */
export function fuzzPlan(
  size: FuzzSize,
  o: { input: boolean; delivery: boolean; admin?: boolean; bodyLimit?: number; seed?: number },
): FuzzPlan {
  let apiInput = 0;
  let created = 0;
  const operations = size.operations ?? API_INPUT_OPERATIONS;
  if (o.input && operations.length > 0 && size.packed) {
    const plan = packedInputPlan(operations, o.bodyLimit ?? 1024 * 1024);
    apiInput = plan.requests;
    created = plan.created;
  } else if (o.input && operations.length > 0) {
    apiInput = 1; // the workspace's ticket count, read once before any operation
    for (const op of operations) {
      const spec = inputOperation(op);
      const cases = operationCases(spec, o.bodyLimit ?? 1024 * 1024);
      const n = Math.max(size.inputCases, cases.sampler.length);
      const write = spec.method !== 'GET';
      const onTicket = spec.spec.template.includes('{');
      // A target ticket, the first read, and per case the request and (for a write) the read
      // after — a creation's count is read once after all its cases (api-input.ts).
      const reads = !write ? 0 : onTicket ? n : 1;
      apiInput += (onTicket ? 1 : 0) + (write ? 1 : 0) + n + reads;
      created += onTicket ? 1 : 0;
      if (op === 'createTicket') {
        const random = n - cases.sampler.length;
        const drawn =
          random > 0
            ? fc.sample(cases.random, { seed: o.seed ?? fuzzSeed(), numRuns: random })
            : [];
        created += [...cases.sampler, ...drawn].filter((c) => ACCEPTED.has(c.kind)).length;
      }
    }
  }
  const scenarios = o.delivery ? size.deliveryRuns + 1 : 0;

  const delivery = scenarios * 4;
  // Each delivery scenario closes its own ticket: the clean-up closes only what is left open
  // (run/clean-up-run.ts) — the API input's accepted creations.
  const cleanUp = created;
  // Through the admin surface (not dashboard endpoints): registerEndpoints, unregisterEndpoints.
  const admin = scenarios > 0 && o.admin ? 1 + 2 * DELIVERY_FORMS.length + scenarios : 0;
  return { apiInput, delivery, cleanUp, admin, total: apiInput + delivery + cleanUp + admin };
}

/**
 * The packed (gate-sized) input fuzz on a correct deployment, as api-input.ts runs it: the count
 * the workspace is opened with serves the creations as their "before" and is read once after
 * them; the update and message cases share the ticket the first accepted creation left (one is
 * created when none did); each operation's cases in gateOrder, with the reads gateReads makes.
 */
function packedInputPlan(operations: readonly ApiInputOperation[], bodyLimit: number) {
  let requests = 1; // the workspace's ticket count, read once when it is opened
  let created = 0;
  let written = false;
  let shared: { fresh: boolean } | undefined;
  for (const op of operations) {
    const spec = inputOperation(op);
    const sampler = operationCases(spec, bodyLimit, true).sampler;
    const onTicket = spec.spec.template.includes('{');
    if (spec.method === 'GET') requests += sampler.length;
    else if (!onTicket) {
      const accepted = sampler.filter(expectedAccepted).length;
      requests += (written ? 1 : 0) + sampler.length + (sampler.length > 0 ? 1 : 0);
      created += accepted;
      if (accepted > 0) shared ??= { fresh: false };
      written ||= sampler.length > 0;
    } else {
      if (!shared) {
        requests += 1;
        created += 1;
        written = true;
        shared = { fresh: false };
      }
      const order = gateOrder(sampler, shared.fresh);
      const reads = gateReads(order, shared.fresh);
      requests += sampler.length + reads.reads;
      shared.fresh = reads.fresh;
    }
  }
  return { requests, created };
}
