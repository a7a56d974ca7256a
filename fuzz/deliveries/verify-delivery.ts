/**
 * Judges one captured webhook delivery: every signature header present is verified over the exact
 * bytes received (never a re-encoding), the headers the endpoint's form promises are present, and
 * the payload is valid UTF-8 JSON matching the spec schema of its event. A failed signature gets a
 * diagnosis (uppercase hex, missing prefix, re-serialised JSON, wrong key) so a report says what
 * the sender got wrong, not only that it did.
 */
import {
  EVENT_SCHEMAS,
  judgeSignatureHeaders,
  schemaViolation,
} from '../../src/checks/catalogue/webhooks.ts';
import {
  diagnoseSignature,
  SIGNATURE_FORMS,
  SIGNATURE_HEADER,
  type SignatureForm,
} from '../../src/signature/index.ts';
import type { CapturedDelivery } from '../../src/webhooks/capture-receiver.ts';

export { diagnoseSignature };

/**
 * What an endpoint was configured to receive: one header form, or both; `unknown` when a
 * dashboard does not say (U15): whichever headers arrive must verify, and at least one must.
 */
export type EndpointForm = SignatureForm | 'both' | 'unknown';

/** The forms an endpoint can be registered with through the admin surface. */
export const ENDPOINT_FORMS: readonly EndpointForm[] = ['prefixed', 'plain', 'both'];

/** The header forms a delivery to an endpoint of `form` must carry. */
export function promisedForms(form: EndpointForm): SignatureForm[] {
  if (form === 'unknown') return [];
  return form === 'both' ? [...SIGNATURE_FORMS] : [form];
}

export interface HeaderVerdict {
  form: SignatureForm;
  /** The endpoint's form promises this header. */
  expected: boolean;
  present: boolean;
  verified: boolean;
  /** Why it did not verify (absent when it verified or was neither present nor expected). */
  diagnosis?: string;
}

export interface DeliveryVerdict {
  ok: boolean;
  event?: string;
  ticketId?: string;
  headers: HeaderVerdict[];
  /** Every problem, one line each ("X-Service-Signature: uppercase hex …", "payload: …"). */
  problems: string[];
}

function payloadProblems(raw: Buffer): { problems: string[]; event?: string; ticketId?: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return { problems: ['payload: the body is not valid UTF-8'] };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return { problems: ['payload: the body is not JSON'] };
  }
  const p = payload as { event?: unknown; ticket?: { id?: unknown } } | null;
  const event = typeof p?.event === 'string' ? p.event : undefined;
  const ticketId = typeof p?.ticket?.id === 'string' ? p.ticket.id : undefined;
  const found = { ...(event ? { event } : {}), ...(ticketId ? { ticketId } : {}) };
  const schema = event ? EVENT_SCHEMAS[event] : undefined;
  if (!schema)
    return {
      ...found,
      problems: [`payload: event ${JSON.stringify(p?.event)} has no schema in the spec`],
    };
  const v = schemaViolation(schema, payload);
  return { ...found, problems: v ? [`payload: not ${v.expected}: ${v.received}`] : [] };
}

/** Judges one delivery to an endpoint of `endpointForm` signed with `secret`. */
export function verifyDelivery(
  d: CapturedDelivery,
  endpointForm: EndpointForm,
  secret: string,
): DeliveryVerdict {
  const promised = promisedForms(endpointForm);
  const problems: string[] = [];
  // A header of a form the endpoint did not ask for must still verify: receivers check both.
  const headers = judgeSignatureHeaders(d.headers, d.raw, secret).map((j): HeaderVerdict => {
    const expected = promised.includes(j.form);
    const verdict: HeaderVerdict = {
      form: j.form,
      expected,
      present: j.present,
      verified: j.verified,
    };
    if (!j.present && expected)
      verdict.diagnosis = `absent; an endpoint of form ${endpointForm} gets ${promised.map((f) => SIGNATURE_HEADER[f]).join(' and ')}`;
    else if (j.diagnosis) verdict.diagnosis = j.diagnosis;
    if (verdict.diagnosis) problems.push(`${SIGNATURE_HEADER[j.form]}: ${verdict.diagnosis}`);
    return verdict;
  });
  if (endpointForm === 'unknown' && !headers.some((h) => h.present))
    problems.push(
      `no signature header at all: neither ${SIGNATURE_FORMS.map((f) => SIGNATURE_HEADER[f]).join(' nor ')}`,
    );
  const payload = payloadProblems(d.raw);
  problems.push(...payload.problems);
  return {
    ok: problems.length === 0,
    ...(payload.event ? { event: payload.event } : {}),
    ...(payload.ticketId ? { ticketId: payload.ticketId } : {}),
    headers,
    problems,
  };
}
