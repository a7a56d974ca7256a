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
 * valid against the spec schema of its event. Finally every delivery captured during the run is
 * judged again as a whole, so nothing that arrived late or belonged to a shrink step is missed.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { fuzzSeed } from '../shared/seed.ts';
import { type TicketContent, ticketContentArb } from '../arbitraries/ticket-content-arb.ts';
import { EVENT_SCHEMAS } from '../../src/checks/catalogue/webhooks.ts';
import { redactValue, registerSecret } from '../../src/redact.ts';
import type { SignatureForm } from '../../src/signature/index.ts';
import { type CapturedDelivery, CaptureReceiver } from '../../src/webhooks/capture-receiver.ts';
import type { AdminAnswer, AdminClient } from '../../src/target/admin-client.ts';
import { createHttp } from '../shared/http.ts';
import { renderDelivery, renderExchange } from '../shared/transcript.ts';
import {
  type DeliveryVerdict,
  ENDPOINT_FORMS,
  type EndpointForm,
  verifyDelivery,
} from './verify-delivery.ts';

/** Options of {@link runDeliveryCheck}. */
export interface DeliveryCheckOptions {
  /** The deployment's API base URL (no trailing `/v1`). */
  baseUrl: string;
  /** A full-access API key of the workspace the endpoints are registered for. */
  apiKey: string;
  /**
   * The deployment's admin surface (src/target/admin-client.ts), to register endpoints and
   * flush deliveries. Not needed with `endpoints`.
   */
  admin?: AdminClient;
  /**
   * Endpoints already set up in the deployment's dashboard, under `receiverPublicUrl` (required
   * with them): nothing is registered, the receiver listens where they point.
   */
  endpoints?: readonly ConfiguredEndpoint[];
  /** The key's workspace; default: looked up with `POST /admin/keys/lookup`. */
  workspaceId?: string;
  /** Scenarios to run (fast-check `numRuns`, shrinking not counted). Default 25. */
  numRuns?: number;
  /** Seed; default `FC_SEED` or the harness default. */
  seed?: number;
  /** Wall-clock budget of the property, shrinking included, in seconds. Default 60. */
  maxSeconds?: number;
  /** Endpoint forms to register. Default all three: `prefixed`, `plain`, `both`. */
  forms?: readonly EndpointForm[];
  /** How long to wait for the deliveries of one scenario. Default 10 000 ms. */
  deliveryTimeoutMs?: number;
  /** Interface the capture receiver listens on. Default `127.0.0.1`. */
  receiverHost?: string;
  /** Port it listens on (dashboard endpoints point at a fixed one). Default: any free port. */
  receiverPort?: number;
  /**
   * Base URL under which the deployment reaches the capture receiver, when it is not the
   * listening address (a tunnel, a container network). Default: the listening address.
   */
  receiverPublicUrl?: string;
  /** Serve the capture receiver over HTTPS with this key and certificate. */
  receiverTls?: { key: string; cert: string };
}

/** An endpoint configured in a dashboard (src/webhooks/endpoints-file.ts, secret attached). */
export interface ConfiguredEndpoint {
  /** Path under the receiver's public URL. */
  path: string;
  events: readonly string[];
  form: EndpointForm;
  secret: string;
}

export interface FormTally {
  /** Deliveries captured at the endpoint (of this form, or at this path for dashboard ones). */
  deliveries: number;
  /** Deliveries with every problem-free signature header and a valid payload. */
  ok: number;
  failed: number;
}

export interface DeliveryFailure {
  endpointForm: EndpointForm;
  /** The endpoint's path (dashboard endpoints). */
  endpoint?: string;
  event?: string;
  deliveryId?: string;
  problems: string[];
  /** The delivery as received, secrets and signature values redacted. */
  transcript: string;
}

export interface DeliveryCheckResult {
  name: 'webhook-delivery-check';
  passed: boolean;
  seed: number;
  /** Scenarios run (shrinking excluded). */
  numRuns: number;
  shrinks: number;
  interrupted?: boolean;
  durationMs: number;
  /** API and admin requests sent. */
  requests: number;
  /** Deliveries captured in total. */
  deliveries: number;
  /** Signature headers that verified over the received bytes, per header form. */
  verified: Record<SignatureForm, number>;
  /** Signature headers that were present (or promised) and did not verify, per header form. */
  rejected: Record<SignatureForm, number>;
  /** Per endpoint: by form (registered ones) or by path (dashboard ones). */
  endpoints: Record<string, FormTally>;
  /** Deliveries per event name. */
  events: Record<string, number>;
  /** Failing deliveries (first 20), each with its transcript. */
  failures: DeliveryFailure[];
  /** Total failing deliveries (may exceed `failures.length`). */
  failedDeliveries: number;
  /** The minimal failing scenario, when the property failed. */
  counterexample?: {
    reason: string;
    /** The ticket content of the scenario (redacted). */
    input: unknown;
    transcript: string;
  };
}

/** Events the scenario always causes (documented names); they are waited for at each endpoint. */
const AWAITED_EVENTS = ['ticket.created', 'ticket.replied', 'customer.replied', 'ticket.closed'];
const MAX_LISTED_FAILURES = 20;

/** Hostile content run once after the property, so even a tiny run covers every kind of text. */
export const HOSTILE_EXAMPLE: TicketContent = {
  subject: 'Zoë 😀👩‍👩‍👧‍👦 שלום "quoted" \\ \u2028\u2029 cafe\u0301 café <b>&amp;</b>',
  requester: { email: 'zoe+test@mail.example.com', name: 'محمد 🏳️‍🌈 O\'Brien "\\"' },
  message: '<script>alert("x")</script>&lt;&#x1F600;\u0000\r\n𝔘𝔫𝔦',
  priority: 'high',
  customerReply: 'Re: \u202Eevil\u202C <p>قرأت</p> \uFEFF',
  agentReply: `<a href="javascript:alert(1)">A\u030A</a> \t \${x} %s`,
};

interface Endpoint {
  form: EndpointForm;
  id?: string;
  path: string;
  secret: string;
  /** Events it receives (dashboard endpoints; registered ones receive all). */
  events?: readonly string[];
  /** Key of its tally: the form, or the path of a dashboard endpoint. */
  label: string;
}

function setupError(what: string, a: AdminAnswer): Error {
  return new Error(`delivery check: ${what} failed (${a.status}): ${a.text.slice(0, 200)}`);
}

export async function runDeliveryCheck(
  options: DeliveryCheckOptions,
): Promise<DeliveryCheckResult> {
  const {
    apiKey,
    admin,
    numRuns = 25,
    maxSeconds = 60,
    forms = ENDPOINT_FORMS,
    deliveryTimeoutMs = 10_000,
  } = options;
  if (!apiKey) throw new Error('delivery check: the API key is empty');
  const dashboard = options.endpoints !== undefined;
  if (dashboard && options.endpoints!.length === 0)
    throw new Error('delivery check: no configured webhook endpoints');
  if (dashboard && !options.receiverPublicUrl)
    throw new Error(
      'delivery check: configured endpoints need the public URL they point at (receiverPublicUrl)',
    );
  if (!dashboard && !admin)
    throw new Error(
      'delivery check: no admin surface (without one, give the endpoints configured in the dashboard)',
    );
  if (!Number.isInteger(numRuns) || numRuns < 1)
    throw new Error(`delivery check: numRuns must be a positive integer, got ${numRuns}`);
  registerSecret(apiKey);
  const seed = options.seed ?? fuzzSeed();
  const started = performance.now();
  const http = createHttp({ baseUrl: options.baseUrl });
  const receiver = new CaptureReceiver(options.receiverTls ? { tls: options.receiverTls } : {});
  const endpoints: Endpoint[] = dashboard
    ? options.endpoints!.map((e) => ({ ...e, label: e.path || '/' }))
    : forms.map((form) => ({
        form,
        label: form,
        path: `/${form}/${randomBytes(6).toString('hex')}`,
        secret: `whsec_${randomBytes(24).toString('base64url')}`,
      }));
  for (const e of endpoints) registerSecret(e.secret);
  const secrets = [apiKey, ...endpoints.map((e) => e.secret)];
  /** What the scenario waits for at `e`: the documented events it is subscribed to. */
  const awaited = (e: Endpoint) =>
    AWAITED_EVENTS.filter((ev) => !e.events || e.events.includes(ev));

  const judged = new Map<CapturedDelivery, DeliveryVerdict>();
  const judge = (d: CapturedDelivery, e: Endpoint) => {
    let v = judged.get(d);
    if (!v) {
      v = verifyDelivery(d, e.form, e.secret);
      judged.set(d, v);
    }
    return v;
  };
  // Routing by path; a tunnel or ingress may keep the public URL's own path or strip it.
  let publicPath = '';
  const pathOf = (d: CapturedDelivery) => d.path.split('?')[0]!;
  const endpointOf = (d: CapturedDelivery) =>
    endpoints.find((e) => [`${publicPath}${e.path}`, e.path || '/'].includes(pathOf(d)));
  const at = (e: Endpoint) => receiver.deliveries.filter((d) => endpointOf(d) === e);

  const api = (method: 'POST', path: string, body?: unknown) =>
    http.send({
      method,
      path,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  let lastFailure: DeliveryCheckResult['counterexample'];
  let details: fc.RunDetails<[TicketContent]> | undefined;
  let exampleFailed = false;
  try {
    let listening: string;
    try {
      listening = await receiver.start(options.receiverHost ?? '127.0.0.1', options.receiverPort);
    } catch (e) {
      throw new Error(
        `delivery check: the capture receiver cannot listen on ${options.receiverHost ?? '127.0.0.1'}:${options.receiverPort ?? 0}: ${(e as Error).message}`,
      );
    }
    const receiverBase = (options.receiverPublicUrl ?? listening).replace(/\/+$/, '');
    publicPath = new URL(receiverBase).pathname.replace(/\/+$/, '');

    let workspaceId = options.workspaceId;
    if (!workspaceId && !dashboard) {
      const a = await admin!.call('POST', '/admin/keys/lookup', { key: apiKey });
      const id = (a.json as { workspace_id?: unknown } | undefined)?.workspace_id;
      if (a.status !== 200 || typeof id !== 'string')
        throw setupError('looking up the workspace of the API key', a);
      workspaceId = id;
    }
    for (const e of dashboard ? [] : endpoints) {
      const a = await admin!.call('POST', '/admin/webhooks', {
        workspace_id: workspaceId,
        url: `${receiverBase}${e.path}`,
        events: Object.keys(EVENT_SCHEMAS),
        secret: e.secret,
        form: e.form,
      });
      const id = (a.json as { id?: unknown } | undefined)?.id;
      if (a.status !== 201 || typeof id !== 'string')
        throw setupError(`registering the ${e.form} endpoint`, a);
      e.id = id;
    }

    const scenario = async (content: TicketContent): Promise<boolean> => {
      const fail = (reason: string, transcript: string) => {
        // Shrinking only moves to failing cases, so the last failure seen is the minimal one.
        lastFailure = { reason, input: redactValue(content, secrets), transcript };
        return false;
      };
      const create = await api('POST', '/v1/tickets', {
        subject: content.subject,
        requester: content.requester,
        ...(content.message === undefined ? {} : { message: content.message }),
        ...(content.priority === undefined ? {} : { priority: content.priority }),
      });
      const id = (create.json as { id?: unknown } | undefined)?.id;
      if (create.status !== 201 && create.status !== 200)
        return fail(
          `the API did not accept schema-valid ticket content (status ${create.status ?? create.error})`,
          renderExchange(create, [], secrets),
        );
      if (typeof id !== 'string')
        return fail('the created ticket has no id', renderExchange(create, [], secrets));
      const path = `/v1/tickets/${encodeURIComponent(id)}`;
      // Sequential on purpose: the order of the events is part of the scenario.
      for (const step of [
        () => api('POST', `${path}/messages`, { author: 'customer', body: content.customerReply }),
        () => api('POST', `${path}/messages`, { author: 'agent', body: content.agentReply }),
        () => api('POST', `${path}/close`),
      ]) {
        const ex = await step();
        if (ex.status === undefined || ex.status >= 300)
          return fail(
            `a scenario step was refused (status ${ex.status ?? ex.error})`,
            renderExchange(ex, [], secrets),
          );
      }
      // A deployment without the flush endpoint is fine: waiting on the receiver covers it.
      await admin?.call('POST', '/admin/deliveries/flush', {}).catch(() => undefined);
      const mine = (e: Endpoint) => at(e).filter((d) => judge(d, e).ticketId === id);
      try {
        await receiver.waitFor(
          () =>
            endpoints.every((e) => {
              const got = new Set(mine(e).map((d) => judged.get(d)?.event));
              return awaited(e).every((ev) => got.has(ev));
            }),
          deliveryTimeoutMs,
        );
      } catch {
        const missing = endpoints
          .map((e) => {
            const got = new Set(mine(e).map((d) => judged.get(d)?.event));
            const lacking = awaited(e).filter((ev) => !got.has(ev));
            return lacking.length ? `${e.label}: ${lacking.join(', ')}` : '';
          })
          .filter(Boolean);
        // Nothing at all in the whole run points at the URL or tunnel, not at the service.
        const none = receiver.deliveries.length === 0;
        return fail(
          `deliveries missing after ${deliveryTimeoutMs} ms (${missing.join('; ')})${none ? `: nothing reached the capture receiver at all (listening on ${listening}, public URL ${receiverBase}); likely the URL, tunnel or ingress` : ''}`,
          `# ticket ${id}: no delivery of these events reached the capture receiver`,
        );
      }
      for (const e of endpoints) {
        for (const d of mine(e)) {
          const v = judge(d, e);
          if (!v.ok)
            return fail(
              `${endpointName(e)}, ${v.event ?? 'unknown event'}: ${v.problems.join('; ')}`,
              renderDelivery(
                d,
                [`endpoint form: ${e.form}`, ...v.problems.map((p) => `problem: ${p}`)],
                secrets,
              ),
            );
        }
      }
      return true;
    };

    const budget = Math.max(1000, maxSeconds * 1000 - (performance.now() - started));
    details = await fc.check(fc.asyncProperty(ticketContentArb(), scenario), {
      seed,
      numRuns,
      interruptAfterTimeLimit: budget,
      markInterruptAsFailure: false,
    });
    if (details.failed && !lastFailure)
      throw new Error(
        `delivery check: the property could not run: ${fc.defaultReportMessage(details)}`,
      );
    // The hand-made worst case runs after the property rather than as a fast-check example: an
    // example is never shrunk, and a failure should be reported with the smallest input.
    if (!details.failed && !(await scenario(HOSTILE_EXAMPLE))) exampleFailed = true;
  } finally {
    for (const e of endpoints) {
      if (e.id)
        await admin
          ?.call('DELETE', `/admin/webhooks/${encodeURIComponent(e.id)}`)
          .catch(() => undefined);
    }
    await receiver.close();
    await http.close();
  }

  // Every delivery captured, whichever scenario (or shrink step) caused it.
  const verified: Record<SignatureForm, number> = { prefixed: 0, plain: 0 };
  const rejected: Record<SignatureForm, number> = { prefixed: 0, plain: 0 };
  const tallies: Record<string, FormTally> = {};
  const events: Record<string, number> = {};
  const failures: DeliveryFailure[] = [];
  let failedDeliveries = 0;
  for (const e of endpoints) tallies[e.label] = { deliveries: 0, ok: 0, failed: 0 };
  for (const d of receiver.deliveries) {
    const e = endpointOf(d);
    if (!e) continue;
    const v = judge(d, e);
    const tally = tallies[e.label]!;
    tally.deliveries++;
    if (v.event) events[v.event] = (events[v.event] ?? 0) + 1;
    for (const h of v.headers) {
      if (h.verified) verified[h.form]++;
      else if (h.present || h.expected) rejected[h.form]++;
    }
    if (v.ok) {
      tally.ok++;
      continue;
    }
    tally.failed++;
    failedDeliveries++;
    if (failures.length < MAX_LISTED_FAILURES) {
      const deliveryId = d.headers['x-service-delivery'];
      failures.push({
        endpointForm: e.form,
        ...(dashboard ? { endpoint: e.label } : {}),
        ...(v.event ? { event: v.event } : {}),
        ...(deliveryId ? { deliveryId } : {}),
        problems: v.problems,
        transcript: renderDelivery(d, [`endpoint form: ${e.form}`], secrets),
      });
    }
  }

  const propertyFailed = Boolean(details?.failed) || exampleFailed;
  return {
    name: 'webhook-delivery-check',
    passed: !propertyFailed && failedDeliveries === 0,
    seed,
    numRuns: details?.numRuns ?? 0,
    shrinks: details?.numShrinks ?? 0,
    ...(details?.interrupted ? { interrupted: true } : {}),
    durationMs: Math.round(performance.now() - started),
    requests: http.sent,
    deliveries: receiver.deliveries.length,
    verified,
    rejected,
    endpoints: tallies,
    events,
    failures,
    failedDeliveries,
    ...(propertyFailed && lastFailure ? { counterexample: lastFailure } : {}),
  };
}

function endpointName(e: Endpoint): string {
  return e.label === e.form ? `${e.form} endpoint` : `endpoint ${e.label} (form ${e.form})`;
}

/** A few lines for a console: the verdict, the tallies, and the minimal counterexample. */
export function formatDeliveryCheck(r: DeliveryCheckResult): string {
  const lines = [
    `webhook delivery check: ${r.passed ? 'PASS' : 'FAIL'} — ${r.deliveries} deliveries from ${r.numRuns} scenarios, seed ${r.seed}${r.interrupted ? ' (time budget reached)' : ''}`,
    `  verified over the received bytes: X-Service-Signature ${r.verified.prefixed}, service-signature ${r.verified.plain}; rejected ${r.rejected.prefixed} and ${r.rejected.plain}`,
  ];
  for (const [label, t] of Object.entries(r.endpoints))
    lines.push(`  endpoint ${label}: ${t.deliveries} deliveries, ${t.ok} ok, ${t.failed} failed`);
  if (r.counterexample) {
    lines.push(
      `  minimal counterexample (replay with FC_SEED=${r.seed}): ${r.counterexample.reason}`,
    );
    lines.push(`  input: ${JSON.stringify(r.counterexample.input)}`);
    lines.push(...r.counterexample.transcript.split('\n').map((l) => `    ${l}`));
  } else if (r.failures[0]) {
    lines.push(`  first failing delivery: ${r.failures[0].problems.join('; ')}`);
    lines.push(...r.failures[0].transcript.split('\n').map((l) => `    ${l}`));
  }
  return lines.join('\n');
}
