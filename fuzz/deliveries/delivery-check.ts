/**
 * The delivery check: real webhook deliveries of a reference-like deployment, captured on a
 * loopback receiver and verified over the exact bytes received, in every header form present.
 *
 * Setup, on a reference deployment (through the admin surface, hence the admin token): one endpoint
 * per form (`prefixed`, `plain`, `both`), each with its own random secret, subscribed to every
 * event. On a deployment whose endpoints are set up in its dashboard (no admin surface), the
 * endpoints the user configured instead (`endpoints`, from HARNESS_WEBHOOK_ENDPOINTS), each
 * judged by its declared form (`unknown`: whichever headers arrive must verify, U15) and waited
 * for only on the events it is subscribed to. Then a fast-check
 * property over hostile ticket content (astral emoji, RTL, NFC/NFD, HTML with `<script>`,
 * JSON-hostile characters): each case creates a ticket, adds a customer reply and an agent reply,
 * closes it, and every delivery it triggers — to every endpoint — must verify and carry a payload
 * valid against the spec schema of its event, and the hand-made worst case after them (alone when
 * `numRuns` is 0: the gate-sized fuzz, fuzz/fuzz-size.ts — every signature and encoding fault of
 * the catalogue shows on any delivery). Finally every delivery captured during the run is
 * judged again as a whole, so nothing that arrived late or belonged to a shrink step is missed.
 */
import fc from 'fast-check';
import { registerSecret } from '../../core/redact.ts';
import { CaptureReceiver } from '../../core/webhooks/capture-receiver.ts';
import { type TicketContent, ticketContentArb } from '../arbitraries/ticket-content-arb.ts';
import { createHttp, RateBudgetExhausted } from '../shared/http.ts';
import { fuzzSeed } from '../shared/seed.ts';
import { planEndpoints, registerEndpoints, unregisterEndpoints } from './endpoints.ts';
import { type DeliveryRouter, deliveryRouter } from './routing.ts';
import { deliveryScenario, HOSTILE_EXAMPLE } from './scenario.ts';
import { tallyDeliveries } from './tally.ts';
import type { Counterexample, DeliveryCheckOptions, DeliveryCheckResult } from './types.ts';
import { DELIVERY_FORMS } from '../../core/signature/index.ts';

/** Refuses options the check cannot run with, before anything is started. */
function checkOptions(options: DeliveryCheckOptions, numRuns: number): void {
  if (!options.apiKey) throw new Error('delivery check: the API key is empty');
  const dashboard = options.endpoints !== undefined;
  if (dashboard && options.endpoints!.length === 0)
    throw new Error('delivery check: no configured webhook endpoints');
  if (dashboard && !options.receiverPublicUrl)
    throw new Error(
      'delivery check: configured endpoints need the public URL they point at (receiverPublicUrl)',
    );
  if (!dashboard && !options.admin)
    throw new Error(
      'delivery check: no admin surface (without one, give the endpoints configured in the dashboard)',
    );
  if (!Number.isInteger(numRuns) || numRuns < 0)
    throw new Error(`delivery check: numRuns must be a whole number, got ${numRuns}`);
}

/** Starts the receiver: the URL it listens on. */
async function startReceiver(receiver: CaptureReceiver, options: DeliveryCheckOptions) {
  const host = options.receiverHost ?? '127.0.0.1';
  try {
    return await receiver.start(host, options.receiverPort);
  } catch (e) {
    throw new Error(
      `delivery check: the capture receiver cannot listen on ${host}:${options.receiverPort ?? 0}: ${(e as Error).message}`,
    );
  }
}

/**
 * The property over random ticket content, then the hand-made worst case. `failedCase`: whether
 * the scenario reported a failing case; a property that failed without one could not run.
 */
async function checkProperty(
  scenario: (content: TicketContent) => Promise<boolean>,
  params: { seed: number; numRuns: number; interruptAfterTimeLimit: number },
  failedCase: () => boolean,
) {
  // No random scenario (the gate-sized fuzz): the hand-made worst case alone.
  if (params.numRuns === 0)
    return { details: undefined, exampleFailed: !(await scenario(HOSTILE_EXAMPLE)) };
  const details = await fc.check(fc.asyncProperty(ticketContentArb(), scenario), {
    ...params,
    markInterruptAsFailure: false,
  });
  // The key's rate budget ran out before any scenario failed: not judged (the caller says why).
  if (details.failed && !failedCase() && details.errorInstance instanceof RateBudgetExhausted)
    throw details.errorInstance;
  if (details.failed && !failedCase())
    throw new Error(
      `delivery check: the property could not run: ${fc.defaultReportMessage(details)}`,
    );
  // The hand-made worst case runs after the property rather than as a fast-check example: an
  // example is never shrunk, and a failure should be reported with the smallest input.
  const exampleFailed = !details.failed && !(await scenario(HOSTILE_EXAMPLE));
  return { details, exampleFailed };
}

export async function runDeliveryCheck(
  options: DeliveryCheckOptions,
): Promise<DeliveryCheckResult> {
  const { apiKey, admin, numRuns = 25, maxSeconds = 60, deliveryTimeoutMs = 10_000 } = options;
  checkOptions(options, numRuns);
  const dashboard = options.endpoints !== undefined;
  registerSecret(apiKey);
  const seed = options.seed ?? fuzzSeed();
  const started = performance.now();
  const http = createHttp({ baseUrl: options.baseUrl });
  const receiver = new CaptureReceiver(options.receiverTls ? { tls: options.receiverTls } : {});
  const endpoints = planEndpoints(options.endpoints, options.forms ?? DELIVERY_FORMS);
  const secrets = [apiKey, ...endpoints.map((e) => e.secret)];
  let router: DeliveryRouter;
  let receiverBase = '';
  let property: Awaited<ReturnType<typeof checkProperty>> | undefined;
  let inconclusive: string | undefined;
  let lastFailure: Counterexample | undefined;
  try {
    const listening = await startReceiver(receiver, options);
    receiverBase = (options.receiverPublicUrl ?? listening).replace(/\/+$/, '');
    router = deliveryRouter(
      receiver,
      endpoints,
      new URL(receiverBase).pathname.replace(/\/+$/, ''),
    );
    if (!dashboard)
      await registerEndpoints(admin!, apiKey, options.workspaceId, endpoints, receiverBase);
    const scenario = deliveryScenario({
      http,
      apiKey,
      admin,
      receiver,
      listening,
      receiverBase,
      endpoints,
      router,
      deliveryTimeoutMs,
      secrets,
      // Shrinking only moves to failing cases, so the last failure seen is the minimal one.
      onFailure: (c) => {
        lastFailure = c;
      },
    });
    const budget = Math.max(1000, maxSeconds * 1000 - (performance.now() - started));
    try {
      property = await checkProperty(
        scenario,
        { seed, numRuns, interruptAfterTimeLimit: budget },
        () => lastFailure !== undefined,
      );
    } catch (e) {
      if (!(e instanceof RateBudgetExhausted)) throw e;
      inconclusive = e.reason;
    }
  } finally {
    await unregisterEndpoints(admin, endpoints);
    await receiver.close();
    await http.close();
  }

  const tally = tallyDeliveries(
    receiver.deliveries,
    endpoints,
    router,
    dashboard,
    secrets,
    receiverBase,
  );
  const details = property?.details;
  const propertyFailed = Boolean(details?.failed || property?.exampleFailed);
  return {
    name: 'webhook-delivery-check',
    passed: !propertyFailed && tally.failedDeliveries === 0,
    seed,
    numRuns: details?.numRuns ?? 0,
    shrinks: details?.numShrinks ?? 0,
    ...(details?.interrupted ? { interrupted: true } : {}),
    ...(inconclusive ? { inconclusive } : {}),
    durationMs: Math.round(performance.now() - started),
    requests: http.sent,
    deliveries: receiver.deliveries.length,
    ...tally,
    ...(propertyFailed && lastFailure ? { counterexample: lastFailure } : {}),
  };
}
