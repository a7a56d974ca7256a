/**
 * The fuzz area of `harness run`:
 *   - the black-box receiver properties against the example receiver (a self-check of the fuzzer
 *     and of the receiver users copy);
 *   - the delivery check: random ticket content → real deliveries, each verified over the exact
 *     received bytes in every header form (subscribed through the admin surface, or to the
 *     endpoints configured in the deployment's dashboard: HARNESS_WEBHOOK_ENDPOINTS / _URL);
 *   - the API input fuzz: schema-derived valid and invalid bodies, and list queries → 2xx +
 *     valid body or 4xx + problem, never a 5xx, never half done (writes: skipped in read-only
 *     mode); every input class (every Unicode plane, boundary lengths, tags lists, number edges)
 *     is listed with how many cases carried it, a class no case carried as not run.
 * Against the embedded deployment all three run; against a real one, what its credentials allow.
 */
import { randomBytes } from 'node:crypto';
import type { HarnessConfig } from '../core/config.ts';
import { classesNotSent, inputClassesLine } from './api-input/class-coverage.ts';
import { formatClasses } from './api-input/format.ts';
import { apiInputFailures } from './api-input/rules.ts';
import { deliveryFailures } from './deliveries/failures.ts';
import { FUZZ_DEPLOYMENT } from './deliveries/embedded.ts';
import { runApiInputFuzz } from './api-input/api-input.ts';
import { LIST_WALK_PAGES } from './api-input/workspace.ts';
import { runDeliveryCheck } from './deliveries/delivery-check.ts';
import { receiverFailures, receiverNotRun } from './receiver/failures.ts';
import { fuzzLocalReceiver } from './receiver/local.ts';
import { registerSecret } from '../core/redact.ts';
import { type AreaSummary, emptyArea, fileFailures, judged } from '../core/area.ts';
import { fullKey, type ResolvedTarget, withTarget } from '../core/target/resolve-target.ts';
import type { FuzzWiring } from './wiring.ts';
import { FULL_FUZZ, type FuzzSize, fuzzPlan } from './fuzz-size.ts';
import { API_INPUT_OPERATIONS } from './api-input/operations.ts';

/** Each fuzzer's own time budget, s (they run one after the other). */
export const FUZZ_STEP_SECONDS = { receiver: 60, delivery: 45, input: 45 } as const;

function exampleReceiverFuzz(createReceiver: FuzzWiring['exampleReceiver']) {
  const secret = `whsec_${randomBytes(18).toString('base64url')}`;
  registerSecret(secret);
  return fuzzLocalReceiver(createReceiver({ secret }), {
    secret,
    form: 'both',
    cases: 25,
    maxSeconds: FUZZ_STEP_SECONDS.receiver,
  });
}

/** How the run sizes its fuzz (fuzz-size.ts) and the key's refill it is paced at. */
export interface FuzzBudget {
  size: FuzzSize;
  /** The key's X-RateLimit-Limit (requests per minute), when the preflight read one. */
  limitPerMin?: number;
}

/**
 * A fuzzer's time budget, stretched by the refill its planned requests may need on a paced key:
 * the key's budget, not the fuzzer, is then what takes the time, and the time budget must not
 * cut the sampler short for it (it still bounds a slow target).
 */
const paced = (seconds: number, requests: number, limitPerMin?: number) =>
  seconds + (limitPerMin ? Math.ceil((requests * 60) / limitPerMin) : 0);

export async function runFuzzStep(
  cfg: HarnessConfig,
  log: (l: string) => void,
  wiring: FuzzWiring,
  budget: FuzzBudget = { size: { name: 'full', ...FULL_FUZZ, why: 'full' } },
): Promise<AreaSummary> {
  const area = emptyArea();
  const { size, limitPerMin } = budget;
  const inputPlan = fuzzPlan(size, { input: true, delivery: false }).apiInput;
  const deliveryPlan = fuzzPlan(size, { input: false, delivery: true }).delivery;

  const receiver = await exampleReceiverFuzz(wiring.exampleReceiver);
  const failed = receiver.properties.filter((p) => p.status === 'failed');
  // Each fuzzer reports in the one failure shape; the area only files them by provenance.
  fileFailures(area, receiverFailures(receiver));
  area.notRun.push(...receiverNotRun(receiver));
  log(
    `  example receiver: ${receiver.properties.length - failed.length} of ${receiver.properties.length} property runs hold (seed ${receiver.seed})`,
  );

  const { delivery, input } = await withTarget(
    cfg,
    { ...FUZZ_DEPLOYMENT, start: wiring.start },
    async (t: ResolvedTarget) => {
      // A real deployment without the admin surface: its dashboard endpoints, on the receiver address
      // they point at (the contract suite's receiver has closed by now, so the port is free).
      const dashboard =
        !t.admin && cfg.webhookUrl && cfg.webhookEndpoints.length > 0 && !cfg.readOnly
          ? {
              endpoints: cfg.webhookEndpoints,
              receiverPublicUrl: cfg.webhookUrl,
              receiverHost: cfg.webhookListen.host,
              receiverPort: cfg.webhookListen.port,
              ...(cfg.webhookTls ? { receiverTls: cfg.webhookTls } : {}),
            }
          : undefined;
      const delivery =
        t.admin || dashboard
          ? await runDeliveryCheck({
              baseUrl: t.baseUrl,
              apiKey: fullKey(t),
              ...(t.admin ? { admin: t.admin } : dashboard),
              numRuns: size.deliveryRuns,
              maxSeconds: paced(FUZZ_STEP_SECONDS.delivery, deliveryPlan, limitPerMin),
            })
          : undefined;
      const input = cfg.readOnly
        ? undefined
        : await runApiInputFuzz({
            baseUrl: t.baseUrl,
            apiKey: fullKey(t),
            numRuns: size.inputCases,
            ...(size.operations ? { operations: size.operations } : {}),
            ...(size.packed ? { packed: true } : {}),
            ...(cfg.listIgnoresLimit
              ? { ignoredParams: cfg.listIgnoresLimit.paged ? ['limit'] : ['limit', 'cursor'] }
              : {}),
            maxSeconds: paced(FUZZ_STEP_SECONDS.input, inputPlan, limitPerMin),
          });
      return { delivery, input };
    },
  );

  // Operations the run's request budget left out (--max-requests): named, never silently dropped.
  if (input && size.operations)
    for (const op of API_INPUT_OPERATIONS.filter((o) => !size.operations!.includes(o)))
      area.notRun.push({ name: `fuzz.api-input ${op}`, reason: `not run: ${size.why}` });
  // The key's rate budget ran out (rate-budget.ts): not run, with the reason — never a failure.
  if (delivery?.inconclusive)
    area.notRun.push({ name: 'fuzz.delivery-check', reason: delivery.inconclusive });
  if (input?.inconclusive) area.notRun.push({ name: 'fuzz.api-input', reason: input.inconclusive });
  if (!delivery)
    area.notRun.push({
      name: 'fuzz.delivery-check',
      reason: cfg.readOnly
        ? 'not run: read-only mode (the delivery check creates tickets)'
        : 'not run: needs HARNESS_ADMIN_TOKEN, or HARNESS_WEBHOOK_URL with HARNESS_WEBHOOK_ENDPOINTS (or HARNESS_WEBHOOK_SECRET) for endpoints configured in the dashboard',
    });
  else {
    log(
      `  deliveries: ${delivery.deliveries} captured, ${delivery.verified.prefixed} prefixed + ${delivery.verified.plain} plain signatures verified, ${delivery.failedDeliveries} failed (seed ${delivery.seed})`,
    );
    fileFailures(area, deliveryFailures(delivery));
  }
  if (!input)
    area.notRun.push({
      name: 'fuzz.api-input',
      reason: 'not run: read-only mode (the input fuzz creates tickets)',
    });
  else {
    for (const op of input.operations) {
      log(
        `  api input ${op.operation}: ${op.status}, ${op.cases} cases, ${op.sampled} of them from the class sampler (seed ${input.seed})`,
      );
      for (const line of formatClasses(op.classes, '    ')) log(line);
    }
    fileFailures(area, apiInputFailures(input));
    if (input.countedVia === 'not-counted')
      area.notRun.push({
        name: 'fuzz.api-input ticket count (nothing half created, created once)',
        reason: `not judged: the workspace holds more than ${LIST_WALK_PAGES * 100} tickets and answers no /v1/reports/summary, so no bounded read counts them`,
      });
    // Operations the spent budget left unjudged are already named once, above.
    for (const op of input.operations.filter((o) => o.notRun && o.notRun !== input.inconclusive))
      area.notRun.push({ name: `fuzz.api-input ${op.operation}`, reason: op.notRun! });
    area.notRun.push(...classesNotSent(input));
  }
  area.details = { receiver, delivery, input };
  area.verdict = judged(area.documentedFailures.length, area.assumptionMismatches.length);
  // The harness failed on some input (a bug): the area could not judge everything, said where.
  const internal = (input?.operations ?? []).flatMap((o) => (o.error ? [o.error] : []));
  if (internal.length > 0) {
    area.verdict = 'error';
    area.error = `api input fuzz: ${internal.join('; ')}`;
  }
  area.headline = [
    `receiver fuzz ${receiver.properties.length - failed.length}/${receiver.properties.length}`,
    delivery
      ? `deliveries ${delivery.deliveries - delivery.failedDeliveries}/${delivery.deliveries} verified`
      : 'deliveries not run',
    input
      ? `api input ${input.operations.filter((o) => o.status === 'passed').length}/${input.operations.length} operations hold, ${inputClassesLine(input)}`
      : 'api input not run',
  ].join(' · ');
  return area;
}
