/**
 * One scenario of the delivery check: create a ticket with the given content, add a customer
 * reply and an agent reply, close it, wait until every endpoint got the documented events it is
 * subscribed to, and judge those deliveries. HOSTILE_EXAMPLE is the hand-made worst case.
 */
import { redactValue } from '../../core/redact.ts';
import type { AdminClient } from '../../core/target/admin-client.ts';
import type { CaptureReceiver } from '../../core/webhooks/capture-receiver.ts';
import type { TicketContent } from '../arbitraries/ticket-content-arb.ts';
import type { Answer, Http } from '../shared/http.ts';
import { deliveryRepro } from '../../core/webhooks/delivery-repro.ts';
import { renderDelivery, renderExchange } from '../shared/transcript.ts';
import { type Endpoint, endpointName, REGISTERED_SECRET_ENV } from './endpoints.ts';
import type { DeliveryRouter } from './routing.ts';
import type { Counterexample } from './types.ts';

/** Events the scenario always causes (documented names); they are waited for at each endpoint. */
const AWAITED_EVENTS = ['ticket.created', 'ticket.replied', 'customer.replied', 'ticket.closed'];

/** Hostile content run once after the property, so even a tiny run covers every kind of text. */
export const HOSTILE_EXAMPLE: TicketContent = {
  subject: 'Zoë 😀👩‍👩‍👧‍👦 שלום "quoted" \\ \u2028\u2029 cafe\u0301 café <b>&amp;</b>',
  requester: { email: 'zoe+test@mail.example.com', name: 'محمد 🏳️‍🌈 O\'Brien "\\"' },
  message: '<script>alert("x")</script>&lt;&#x1F600;\u0000\r\n𝔘𝔫𝔦',
  priority: 'high',
  customerReply: 'Re: \u202Eevil\u202C <p>قرأت</p> \uFEFF',
  agentReply: `<a href="javascript:alert(1)">A\u030A</a> \t \${x} %s`,
};

export interface ScenarioContext {
  http: Http;
  apiKey: string;
  admin?: AdminClient;
  receiver: CaptureReceiver;
  /** Where the receiver listens, and the base URL the deployment reaches it under. */
  listening: string;
  receiverBase: string;
  endpoints: readonly Endpoint[];
  router: DeliveryRouter;
  deliveryTimeoutMs: number;
  /** Redacted from the counterexample. */
  secrets: string[];
  /** Told of each failing case. */
  onFailure(c: Counterexample): void;
}

/** Why a case failed, with the transcript that shows it. */
type Failed = Omit<Counterexample, 'input'>;

/** The scenario as a fast-check predicate over the ticket content. */
export function deliveryScenario(ctx: ScenarioContext): (c: TicketContent) => Promise<boolean> {
  return async (content) => {
    const failed = await runScenario(ctx, content);
    if (!failed) return true;
    const { reason, transcript, repro, check } = failed;
    ctx.onFailure({
      reason,
      input: redactValue(content, ctx.secrets),
      transcript,
      ...(repro ? { repro } : {}),
      ...(check ? { check } : {}),
    });
    return false;
  };
}

async function runScenario(ctx: ScenarioContext, content: TicketContent) {
  const id = await ticketSteps(ctx, content);
  if (typeof id !== 'string') return id;
  // A deployment without the flush endpoint is fine: waiting on the receiver covers it.
  await ctx.admin?.call('POST', '/admin/deliveries/flush', {}).catch(() => undefined);
  return (await awaitDeliveries(ctx, id)) ?? badDelivery(ctx, id);
}

function post(ctx: ScenarioContext, path: string, body?: unknown) {
  return ctx.http.send('POST', path, {
    headers: {
      authorization: `Bearer ${ctx.apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { raw: JSON.stringify(body) }),
  });
}

/** Creates the ticket, replies as customer and agent, closes it: the ticket's id, or why not. */
async function ticketSteps(ctx: ScenarioContext, content: TicketContent): Promise<string | Failed> {
  const create = await post(ctx, '/v1/tickets', {
    subject: content.subject,
    requester: content.requester,
    ...(content.message === undefined ? {} : { message: content.message }),
    ...(content.priority === undefined ? {} : { priority: content.priority }),
  });
  const refused = (reason: string, ex: Answer) => ({
    reason,
    transcript: renderExchange(ex, [], ctx.secrets),
    // A 5xx to the scenario's own request is the API's fault, not a delivery's.
    ...(ex.status !== undefined && ex.status >= 500 ? { check: 'exchange.no-5xx' } : {}),
  });
  const id = (create.json as { id?: unknown } | undefined)?.id;
  if (create.status !== 201 && create.status !== 200)
    return refused(
      `the API did not accept schema-valid ticket content (status ${create.status ?? create.error})`,
      create,
    );
  if (typeof id !== 'string') return refused('the created ticket has no id', create);
  const path = `/v1/tickets/${encodeURIComponent(id)}`;
  // Sequential on purpose: the order of the events is part of the scenario.
  for (const step of [
    () => post(ctx, `${path}/messages`, { author: 'customer', body: content.customerReply }),
    () => post(ctx, `${path}/messages`, { author: 'agent', body: content.agentReply }),
    () => post(ctx, `${path}/close`),
  ]) {
    const ex = await step();
    if (ex.status === undefined || ex.status >= 300)
      return refused(`a scenario step was refused (status ${ex.status ?? ex.error})`, ex);
  }
  return id;
}

/** The deliveries at `e` about ticket `id`. */
function mine(ctx: ScenarioContext, e: Endpoint, id: string) {
  return ctx.router.at(e).filter((d) => ctx.router.judge(d, e).ticketId === id);
}

/** Waits for the awaited events of ticket `id` at every endpoint: undefined, or which are missing. */
async function awaitDeliveries(ctx: ScenarioContext, id: string): Promise<Failed | undefined> {
  const { receiver, endpoints, deliveryTimeoutMs } = ctx;
  const lacking = (e: Endpoint) => {
    const got = new Set(mine(ctx, e, id).map((d) => ctx.router.judge(d, e).event));
    // What the scenario waits for at `e`: the documented events it is subscribed to.
    return AWAITED_EVENTS.filter((ev) => (!e.events || e.events.includes(ev)) && !got.has(ev));
  };
  try {
    await receiver.waitFor(
      () => endpoints.every((e) => lacking(e).length === 0),
      deliveryTimeoutMs,
    );
    return undefined;
  } catch {
    const missing = endpoints
      .map((e) => [e.label, lacking(e).join(', ')])
      .filter(([, events]) => events)
      .map(([label, events]) => `${label}: ${events}`);
    // Nothing at all in the whole run points at the URL or tunnel, not at the service.
    const none = receiver.deliveries.length === 0;
    return {
      reason: `deliveries missing after ${deliveryTimeoutMs} ms (${missing.join('; ')})${none ? `: nothing reached the capture receiver at all (listening on ${ctx.listening}, public URL ${ctx.receiverBase}); likely the URL, tunnel or ingress` : ''}`,
      transcript: `# ticket ${id}: no delivery of these events reached the capture receiver`,
    };
  }
}

/** The first delivery about ticket `id` that does not verify or validate, as a failure. */
function badDelivery(ctx: ScenarioContext, id: string): Failed | undefined {
  for (const e of ctx.endpoints) {
    for (const d of mine(ctx, e, id)) {
      const v = ctx.router.judge(d, e);
      if (!v.ok)
        return {
          reason: `${endpointName(e)}, ${v.event ?? 'unknown event'}: ${v.problems.join('; ')}`,
          transcript: renderDelivery(
            d,
            [`endpoint form: ${e.form}`, ...v.problems.map((p) => `problem: ${p}`)],
            ctx.secrets,
          ),
          repro: deliveryRepro(d, {
            url: `${ctx.receiverBase}${e.path}`,
            secretEnv: e.secretEnv ?? REGISTERED_SECRET_ENV,
            note: v.problems.join('; '),
          }),
        };
    }
  }
  return undefined;
}
