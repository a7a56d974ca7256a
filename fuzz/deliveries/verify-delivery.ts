/**
 * Judges one captured webhook delivery by the catalogue's webhook checks, the ones the contract
 * suite applies to the same delivery: every signature header present verifies over the exact
 * bytes received (webhook.signature-valid, documented), the Content-Type is application/json
 * (webhook.content-type, documented), the headers the endpoint's form promises are there
 * (webhook.signature-form, U15), and the payload has the documented envelope where the docs give
 * one (webhook.payload-schema) and the spec's full shape of its event (webhook.event-shape, U13).
 * A documented problem fails the delivery; an assumed one is a warning. A failed signature gets a
 * diagnosis (uppercase hex, missing prefix, re-serialised JSON, wrong key) so a report says what
 * the sender got wrong, not only that it did.
 */
import {
  contentTypeJson,
  judgeSignatureHeaders,
  payloadChecksFor,
  signatureForm,
  signatureValid,
} from '../../core/checks/catalogue/webhooks.ts';
import type { Check, Exchange } from '../../core/checks/types.ts';
import type { Provenance } from '../../core/spec/operations.ts';
import {
  SIGNATURE_FORMS,
  SIGNATURE_HEADER,
  type EndpointForm,
  type SignatureForm,
} from '../../core/signature/index.ts';
import { type CapturedDelivery, deliveryAsExchange } from '../../core/webhooks/capture-receiver.ts';
import { utf8JsonBody } from '../../core/webhooks/json-body.ts';

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

/** One rule a delivery broke: the check, its provenance, and the problem in one line. */
export interface DeliveryFinding {
  check: string;
  provenance: Provenance;
  problem: string;
}

export interface DeliveryVerdict {
  /** No documented rule broken (assumed ones are `warnings`). */
  ok: boolean;
  event?: string;
  ticketId?: string;
  headers: HeaderVerdict[];
  /** Every documented problem, one line each ("X-Service-Signature: uppercase hex …", "payload: …"). */
  problems: string[];
  /** Every rule broken, documented and assumed, with its check. */
  findings: DeliveryFinding[];
}

const finding = (c: Check<any>, problem: string): DeliveryFinding => ({
  check: c.name,
  provenance: c.provenance,
  problem,
});

function lenientJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The payload by the checks of its event. A body that is not UTF-8 JSON breaks the Content-Type
 * rule (webhook.content-type, judged by the caller) and is not judged again here.
 */
function payloadFindings(raw: Buffer, ex: Exchange) {
  const body = utf8JsonBody(raw);
  // Routed by its event and ticket even when its bytes are wrong (read leniently then).
  const p = (body.ok ? body.json : lenientJson(raw)) as
    | { event?: unknown; ticket?: { id?: unknown } }
    | null
    | undefined;
  const event = typeof p?.event === 'string' ? p.event : undefined;
  const ticketId = typeof p?.ticket?.id === 'string' ? p.ticket.id : undefined;
  const found = { ...(event ? { event } : {}), ...(ticketId ? { ticketId } : {}) };
  if (!body.ok) return { ...found, findings: [] };
  const payload = body.json;
  // Without an event name: the documented envelope is what it breaks.
  const judged = event ?? 'ticket.created';
  const findings: DeliveryFinding[] = [];
  for (const c of payloadChecksFor(judged)) {
    const v = c.run(ex, { event: judged, payload });
    if (v) findings.push(finding(c, `payload: not ${v.expected}: ${v.received}`));
  }
  return { ...found, findings };
}

/** Judges one delivery to an endpoint of `endpointForm` signed with `secret`. */
export function verifyDelivery(
  d: CapturedDelivery,
  endpointForm: EndpointForm,
  secret: string,
): DeliveryVerdict {
  const promised = promisedForms(endpointForm);
  const ex = deliveryAsExchange(d);
  const findings: DeliveryFinding[] = [];
  // A header of a form the endpoint did not ask for must still verify: receivers check both.
  const headers = judgeSignatureHeaders(d.headers, d.raw, secret).map((j): HeaderVerdict => {
    const expected = promised.includes(j.form);
    const verdict: HeaderVerdict = {
      form: j.form,
      expected,
      present: j.present,
      verified: j.verified,
    };
    if (!j.present && expected) {
      // Which forms an endpoint's deliveries carry is U15: webhook.signature-form's rule.
      verdict.diagnosis = `absent; an endpoint of form ${endpointForm} gets ${promised.map((f) => SIGNATURE_HEADER[f]).join(' and ')}`;
      findings.push(finding(signatureForm, `${SIGNATURE_HEADER[j.form]}: ${verdict.diagnosis}`));
    } else if (j.diagnosis) {
      verdict.diagnosis = j.diagnosis;
      findings.push(finding(signatureValid, `${SIGNATURE_HEADER[j.form]}: ${j.diagnosis}`));
    }
    return verdict;
  });
  if (!headers.some((h) => h.present))
    findings.push(
      finding(
        signatureValid,
        `no signature header at all: neither ${SIGNATURE_FORMS.map((f) => SIGNATURE_HEADER[f]).join(' nor ')}`,
      ),
    );
  const wrongType = contentTypeJson.run(ex, { raw: d.raw });
  if (wrongType) findings.push(finding(contentTypeJson, `Content-Type: ${wrongType.received}`));
  const payload = payloadFindings(d.raw, ex);
  findings.push(...payload.findings);
  const problems = findings.filter((f) => f.provenance === 'documented').map((f) => f.problem);
  return {
    ok: problems.length === 0,
    ...(payload.event ? { event: payload.event } : {}),
    ...(payload.ticketId ? { ticketId: payload.ticketId } : {}),
    headers,
    problems,
    findings,
  };
}
