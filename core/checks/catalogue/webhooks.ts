/**
 * Checks of webhook deliveries as captured by the receiver. The exchange is the delivery: the
 * request the service sent, and the receiver's answer.
 */
import {
  diagnoseSignature,
  SIGNATURE_FORMS,
  SIGNATURE_HEADER,
  type SignatureForm,
  verifySignature,
} from '../../signature/index.ts';
import { utf8JsonBody } from '../../webhooks/json-body.ts';
import { schemaViolation, show } from '../failure.ts';
import { defineCheck } from '../registry.ts';
import type { Assumption } from '../types.ts';

/** Webhook payload schema per event (spec `webhooks:`). */
export const EVENT_SCHEMAS: Record<string, string> = {
  'ticket.created': 'TicketCreatedEvent',
  'ticket.replied': 'TicketRepliedEvent',
  'ticket.closed': 'TicketClosedEvent',
  'sla.at_risk': 'SlaAtRiskEvent',
  'customer.replied': 'CustomerRepliedEvent',
  'agent.replied': 'AgentRepliedEvent',
  'ticket.status_changed': 'TicketStatusChangedEvent',
  'ticket.note_added': 'TicketNoteAddedEvent',
  'macro.applied': 'MacroAppliedEvent',
};

/**
 * Events whose payload the docs give (the envelope of "Payload shape"), named by the docs: their
 * deliveries are held to webhook.payload-schema (documented). Every event's full shape, envelope
 * and extras, is U13 (webhook.event-shape, assumed); the other events' names are U12.
 */
export const ENVELOPE_EVENTS: readonly string[] = [
  'ticket.created',
  'ticket.replied',
  'ticket.closed',
  'customer.replied',
];

/** How one signature header form fared on a delivery. */
export interface SignatureJudgement {
  form: SignatureForm;
  present: boolean;
  verified: boolean;
  /** Why a present header does not verify. */
  diagnosis?: string;
}

/**
 * The one judge of the signature rule, per header form: present, verifying over the received
 * bytes, and if not, why. webhook.signature-valid and the delivery fuzz (fuzz/deliveries) both
 * use it.
 */
export function judgeSignatureHeaders(
  headers: Readonly<Record<string, string | undefined>>,
  raw: Uint8Array,
  secret: string,
): SignatureJudgement[] {
  return SIGNATURE_FORMS.map((form) => {
    const value = headers[SIGNATURE_HEADER[form].toLowerCase()];
    if (value === undefined) return { form, present: false, verified: false };
    if (verifySignature(form, secret, raw, value)) return { form, present: true, verified: true };
    const diagnosis = diagnoseSignature(form, secret, raw, value);
    return { form, present: true, verified: false, diagnosis };
  });
}

export const signatureValid = defineCheck({
  name: 'webhook.signature-valid',
  provenance: 'documented',
  assumptions: [],
  rule: 'Each delivery is signed: HMAC-SHA256 of the raw body keyed by the secret, in X-Service-Signature (sha256=<hex>) and/or service-signature (<hex>).',
  kind: 'scenario',
  appliesTo: { columns: 'every-event' },
  run(ex, a: { raw: Uint8Array; secret: string }) {
    const judged = judgeSignatureHeaders(ex.request.headers, a.raw, a.secret);
    if (!judged.some((j) => j.present))
      return {
        received: 'no signature header',
        expected: 'X-Service-Signature and/or service-signature',
      };
    const bad = judged.filter((j) => j.present && !j.verified);
    if (bad.length === 0) return undefined;
    return {
      received: bad
        .map(
          (j) =>
            `${SIGNATURE_HEADER[j.form]} does not verify over the ${a.raw.length} received bytes: ${j.diagnosis}`,
        )
        .join('; '),
      expected: 'lowercase hex HMAC-SHA256 of the exact bytes sent, with the endpoint secret',
    };
  },
});

export const payloadSchema = defineCheck({
  name: 'webhook.payload-schema',
  provenance: 'documented',
  assumptions: [],
  // Only the envelope is documented; per-event extras (customer.replied's message, …) are U13
  // and belong to webhook.event-shape, or a deployment without them would fail the gate.
  rule: 'Payload: event, ticket {id, subject, status, priority, url}, customer {name, email}.',
  kind: 'scenario',
  run(_ex, a: { event: string; payload: unknown }) {
    const env = a.payload as { event?: unknown } | undefined;
    if (env && typeof env === 'object' && env.event !== a.event)
      return { received: `event ${show(env.event)}`, expected: `event ${show(a.event)}` };
    return schemaViolation('EventEnvelope', a.payload);
  },
});

/**
 * The triggered event arrived among the deliveries of its trigger. `leansOn`: the trigger's kind
 * rests on a gap (a message taken for a customer's reply by its assumed `author`, U9), so a
 * missing event may be the target's other reading of it.
 */
const eventArrived = <const N extends string>(
  name: N,
  provenance: 'documented' | 'assumed',
  rule: string,
) =>
  defineCheck({
    name,
    provenance,
    ...(provenance === 'documented' ? { assumptions: ['U9'] } : {}),
    rule,
    kind: 'scenario',
    run(_ex, a: { event: string; got: string[]; diagnosis?: string; leansOn?: Assumption }) {
      return a.got.includes(a.event)
        ? undefined
        : {
            received: `deliveries: ${a.got.join(', ') || 'none'}${a.diagnosis ? ` — ${a.diagnosis}` : ''}`,
            expected: `a ${a.event} delivery`,
            ...(a.leansOn ? { leansOn: a.leansOn } : {}),
          };
    },
  });

export const eventDelivered = eventArrived(
  'webhook.event-delivered',
  'documented',
  'The service sends the POST as the event happens.',
);

export const httpsDelivered = defineCheck({
  name: 'webhook.https-delivered',
  provenance: 'documented',
  assumptions: [],
  rule: 'Webhook delivery: the target is the subscriber URL, HTTPS — an endpoint at an HTTPS URL (its certificate one the endpoint is set up to trust) receives its chosen events.',
  kind: 'scenario',
  run(_ex, a: { event: string; got: string[]; url: string }) {
    return a.got.includes(a.event)
      ? undefined
      : {
          received: `deliveries at ${a.url}: ${a.got.join(', ') || 'none'}`,
          expected: `a ${a.event} delivery over HTTPS`,
        };
  },
});

export const onlyChosenEvents = defineCheck({
  name: 'webhook.only-chosen-events',
  provenance: 'documented',
  assumptions: [],
  rule: 'An endpoint receives only the events chosen for it.',
  kind: 'scenario',
  /** `endpoint`: which one, in the report (a dashboard has several). */
  run(_ex, a: { chosen: string[]; got: string[]; endpoint?: string }) {
    const extra = a.got.filter((e) => !a.chosen.includes(e));
    return extra.length === 0
      ? undefined
      : {
          received: `${a.endpoint ? `at ${a.endpoint}: ` : ''}unchosen events delivered: ${[...new Set(extra)].join(', ')}`,
          expected: `only ${a.chosen.join(', ')}`,
        };
  },
});

export const slaAtRiskFired = defineCheck({
  name: 'webhook.sla-at-risk-fired',
  provenance: 'documented',
  assumptions: [],
  rule: 'sla.at_risk: a ticket crosses its at-risk threshold.',
  kind: 'scenario',
  run(_ex, a: { got: string[] }) {
    return a.got.includes('sla.at_risk')
      ? undefined
      : {
          received: `no sla.at_risk after the threshold (got ${a.got.join(', ') || 'nothing'})`,
          expected: 'one sla.at_risk delivery',
        };
  },
});

export const retriedAfter5xx = defineCheck({
  name: 'webhook.retried-after-5xx',
  provenance: 'assumed',
  rule: 'U14: a 5xx from the receiver is retried with backoff, with the same delivery id.',
  kind: 'scenario',
  /** `waitedMs`: how long the retry was watched for, from the 503 on. */
  run(_ex, a: { attempts: number; deliveryIds: string[]; waitedMs?: number }) {
    if (a.attempts >= 2 && new Set(a.deliveryIds).size === 1) return undefined;
    const waited =
      a.attempts < 2 && a.waitedMs !== undefined
        ? `; no retry observed within ${Math.round(a.waitedMs / 1000)} s`
        : '';
    return {
      received: `${a.attempts} attempt(s), delivery ids ${[...new Set(a.deliveryIds)].join(', ') || '(none)'}${waited}`,
      expected: 'at least 2 attempts with one stable X-Service-Delivery id',
    };
  },
});

/** Events whose identifiers are assumed (U12) or whose trigger is the reference's clock (U13). */
export const eventNamed = eventArrived(
  'webhook.event-named',
  'assumed',
  'U12: status change, agent reply, internal note and macro applied are delivered as ticket.status_changed, agent.replied, ticket.note_added and macro.applied.',
);

export const eventShape = defineCheck({
  name: 'webhook.event-shape',
  provenance: 'assumed',
  rule: 'U13: every event uses the envelope {event, ticket, customer} plus its event-specific extras.',
  kind: 'scenario',
  run(_ex, a: { event: string; payload: unknown }) {
    const schema = EVENT_SCHEMAS[a.event];
    if (!schema)
      return {
        received: `event ${show(a.event)}`,
        expected: `one of ${Object.keys(EVENT_SCHEMAS).join(', ')}`,
      };
    return schemaViolation(schema, a.payload);
  },
});

/** args: the form the endpoint was configured with. */
export const signatureForm = defineCheck({
  name: 'webhook.signature-form',
  provenance: 'assumed',
  rule: 'U15: a delivery carries the signature header form(s) chosen for its endpoint.',
  kind: 'scenario',
  run(ex, a: { form: 'prefixed' | 'plain' | 'both' }) {
    const h = ex.request.headers;
    const has = (f: SignatureForm) => h[SIGNATURE_HEADER[f].toLowerCase()] !== undefined;
    const want = { prefixed: a.form !== 'plain', plain: a.form !== 'prefixed' };
    if (SIGNATURE_FORMS.every((f) => has(f) === want[f])) return undefined;
    const present = SIGNATURE_FORMS.filter(has).map((f) => SIGNATURE_HEADER[f]);
    return { received: `headers: ${present.join(', ') || 'none'}`, expected: `the ${a.form} form` };
  },
});

export const slaAtRiskOnce = defineCheck({
  name: 'webhook.sla-at-risk-once',
  provenance: 'assumed',
  rule: 'U13: sla.at_risk fires once per ticket when 25 % of the first-response target is left.',
  kind: 'scenario',
  run(_ex, a: { count: number }) {
    return a.count === 1
      ? undefined
      : { received: `${a.count} sla.at_risk deliveries for one ticket`, expected: 'exactly one' };
  },
});

/** args: the exact bytes received (JSON is UTF-8, RFC 8259 §8.1: a Latin-1 body is not JSON). */
export const contentTypeJson = defineCheck({
  name: 'webhook.content-type',
  provenance: 'documented',
  assumptions: [],
  rule: 'Webhook delivery: POST with Content-Type application/json and a JSON body (JSON is UTF-8, RFC 8259).',
  kind: 'scenario',
  appliesTo: { columns: 'every-event' },
  run(ex, a: { raw: Uint8Array }) {
    const ct = (ex.request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const method = ex.request.method.toUpperCase();
    if (ct !== 'application/json' || method !== 'POST')
      return {
        received: `${method} with Content-Type ${ct || '(absent)'}`,
        expected: 'POST with Content-Type application/json',
      };
    const body = utf8JsonBody(a.raw);
    if (body.ok) return undefined;
    return {
      received: `Content-Type application/json with ${body.problem}`,
      expected: 'a JSON body encoded as UTF-8',
    };
  },
});

/**
 * The payload rules of one delivery of `event`, as the contract suite and the delivery fuzz both
 * apply them: the documented envelope where the docs give it, the spec's full shape as assumed.
 */
export function payloadChecksFor(event: string) {
  return ENVELOPE_EVENTS.includes(event) ? [payloadSchema, eventShape] : [eventShape];
}

export const WEBHOOK_CHECKS = [
  contentTypeJson,
  signatureValid,
  payloadSchema,
  eventDelivered,
  httpsDelivered,
  onlyChosenEvents,
  slaAtRiskFired,
  retriedAfter5xx,
  eventNamed,
  eventShape,
  signatureForm,
  slaAtRiskOnce,
];
