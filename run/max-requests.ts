/**
 * `--max-requests N` (HARNESS_MAX_REQUESTS): the run's plan made to fit N requests, from the same
 * counts the cost line prints (run/cost-estimate.ts, fuzz/fuzz-size.ts), before anything is sent.
 *
 * The fuzz gives way first: fewer random input cases, down to each operation's class sampler
 * alone, then the gate-sized fuzz (the packed samplers: fuzz/fuzz-size.ts), then that on fewer
 * operations, then no fuzz at all. Only when the
 * contract suite alone exceeds N are contract tests left out — the first that fit are kept, in the
 * order Playwright lists them, and every one left out is named: it goes to the contract area's
 * "not run" (console, summary.json, junit.xml) and the verdict line says the gate was partial.
 * A documented rule is never dropped silently.
 */
import { API_INPUT_OPERATIONS, type ApiInputOperation } from '../fuzz/api-input/operations.ts';
import { type FuzzSize, fuzzPlan, GATE_FUZZ } from '../fuzz/fuzz-size.ts';
import { contractCost, contractWorkers, type RequestCosts, testCost } from './cost-estimate.ts';

export interface FitInput {
  max: number;
  costs: RequestCosts;
  /** The contract tests the run selects (titles); none when the suite does not run. */
  tests: readonly string[];
  /** The fuzz size the run would use; undefined when the fuzz does not run. */
  fuzz?: FuzzSize;
  /** As fuzzPlan takes them: which fuzzers run. */
  fuzzers: { input: boolean; delivery: boolean; admin?: boolean };
  /** The contract suite's environment (its HARNESS_WORKERS); default this process's. */
  env?: NodeJS.ProcessEnv;
}

export interface Fit {
  /** The fuzz size that fits (undefined: the fuzz does not fit at all, or did not run). */
  fuzz?: FuzzSize;
  /** Why the fuzz is not run (it was planned but no size of it fits). */
  fuzzLeftOut?: string;
  /** Contract tests kept, in listed order. */
  tests: string[];
  /** Contract tests left out to fit N. */
  leftOut: string[];
}

/**
 * The fuzz's count with a tenth on top for what it does not foresee (a gate-sized fuzz measured
 * 211 sent for 202 counted on a served deployment): N is a limit, not a target.
 */
export const fuzzCost = (size: FuzzSize, f: FitInput['fuzzers']) =>
  Math.ceil(fuzzPlan(size, f).total * 1.1);

export function fitToMaxRequests(i: FitInput): Fit {
  const why = `to fit --max-requests ${i.max}`;
  const contracts = Math.ceil(contractCost(i.costs, i.tests, i.env).sent);
  if (i.fuzz) {
    const room = i.max - contracts;
    const at = (inputCases: number, operations = i.fuzz!.operations): FuzzSize => ({
      ...i.fuzz!,
      name: 'fitted',
      inputCases,
      deliveryRuns: Math.min(i.fuzz!.deliveryRuns, Math.max(1, Math.round(inputCases / 4))),
      why,
      ...(operations ? { operations } : {}),
    });
    if (fuzzCost(i.fuzz, i.fuzzers) <= room)
      return { fuzz: i.fuzz, tests: [...i.tests], leftOut: [] };
    // Fewer random cases: the largest count that fits (the cost grows with the count).
    for (let n = i.fuzz.inputCases - 1; n >= 1; n--) {
      const s = at(n);
      if (fuzzCost(s, i.fuzzers) <= room)
        return {
          fuzz: { ...s, why: `${s.why}: ${n} input cases per operation` },
          tests: [...i.tests],
          leftOut: [],
        };
    }
    // The gate-sized fuzz (the packed samplers, the hostile delivery alone), then on fewer
    // operations (the last ones first).
    const packed = (operations?: ApiInputOperation[]): FuzzSize => ({
      ...at(1, operations),
      ...GATE_FUZZ,
    });
    const gate = packed();
    if (!i.fuzz.packed && fuzzCost(gate, i.fuzzers) <= room)
      return {
        fuzz: { ...gate, why: `${gate.why}: the packed samplers alone` },
        tests: [...i.tests],
        leftOut: [],
      };
    const ops = [...(i.fuzz.operations ?? API_INPUT_OPERATIONS)];
    while (ops.length > 0) {
      ops.pop();
      const s = packed([...ops]);
      if (ops.length > 0 && fuzzCost(s, i.fuzzers) <= room)
        return {
          fuzz: { ...s, why: `${s.why}: the samplers of ${ops.join(', ')} only` },
          tests: [...i.tests],
          leftOut: [],
        };
    }
  }
  const fuzzLeftOut = i.fuzz
    ? `not run: no fuzz of any size fits beside the contract suite (${why})`
    : undefined;
  if (contracts <= i.max)
    return { tests: [...i.tests], leftOut: [], ...(fuzzLeftOut ? { fuzzLeftOut } : {}) };
  // The contract suite alone exceeds N: keep the tests that fit, name the rest.
  const kept: string[] = [];
  const leftOut: string[] = [];
  let sent = contractWorkers(i.tests.length, i.env) * i.costs.perWorker.sent;
  for (const t of i.tests) {
    // What is left out makes the run partial: a kept test sends what it borrowed in a whole one.
    const c = testCost(i.costs, t, true).sent;
    if (sent + c <= i.max) {
      kept.push(t);
      sent += c;
    } else leftOut.push(t);
  }
  return { tests: kept, leftOut, ...(fuzzLeftOut ? { fuzzLeftOut } : {}) };
}
