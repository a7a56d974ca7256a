/**
 * Readings of the error gaps and of the resources beyond tickets: the error body (U16), the status
 * of each error condition (U17–U21), contacts, macros, rules and reports (U10) and the
 * deprecation policy (U27).
 */
import type { Reading } from './reading.ts';

/** An HTTP status a reading may answer an error condition with. */
type Status = 400 | 401 | 403 | 404 | 415 | 422;

export interface ErrorBehaviour {
  /**
   * U10: contacts, macros, rules and reports — `assumed` (contacts CRUD, macros list + apply, rules
   * list + create, a summary report, as the spec has them), the same but a contact's creation
   * answered `contact-created-200`, or `absent`: none of them exposed (their routes answer 404).
   */
  resources: 'assumed' | 'contact-created-200' | 'absent';
  /**
   * U16: the error body — `problem` (RFC 9457 application/problem+json), `error-object`
   * (application/json `{"error": {code, message, request_id, details}}`) or `plain-text`
   * (text/plain, one line of text, the invalid fields below it).
   */
  errorBody: 'problem' | 'error-object' | 'plain-text';
  /** U17: the status of a request without a key. */
  missingKeyStatus: Extract<Status, 401 | 403>;
  /** U17: whether a refusal for a missing or invalid key carries `WWW-Authenticate: Bearer …`. */
  wwwAuthenticate: boolean;
  /** U18: the status of a request with a key the deployment does not know. */
  invalidKeyStatus: Extract<Status, 401 | 403>;
  /** U19: the status of a write with a read-only key. */
  readOnlyWriteStatus: Extract<Status, 401 | 403 | 404>;
  /** U19: the error code of that refusal. */
  readOnlyWriteCode: 'insufficient_scope' | 'forbidden';
  /** U20: the status of a body (or query) that violates the schema. */
  validationStatus: Extract<Status, 400 | 422>;
  /** U20: the status of a body that is not well-formed JSON. */
  malformedJsonStatus: Extract<Status, 400 | 422>;
  /** U20: the status of a body of another media type than JSON. */
  wrongMediaTypeStatus: Extract<Status, 400 | 415>;
  /** U21: the status of another workspace's ticket (404: answered as an unknown one). */
  foreignTicketStatus: Extract<Status, 403 | 404>;
  /** U21: the status of a ticket id the deployment never issued. */
  unknownTicketStatus: Extract<Status, 400 | 404>;
  /** U27: whether every API answer announces a deprecation (`Deprecation` and `Sunset` headers). */
  deprecationHeaders: boolean;
}

export const ERROR_DEFAULTS: ErrorBehaviour = {
  resources: 'assumed',
  errorBody: 'problem',
  missingKeyStatus: 401,
  wwwAuthenticate: true,
  invalidKeyStatus: 401,
  readOnlyWriteStatus: 403,
  readOnlyWriteCode: 'insufficient_scope',
  validationStatus: 422,
  malformedJsonStatus: 400,
  wrongMediaTypeStatus: 415,
  foreignTicketStatus: 404,
  unknownTicketStatus: 404,
  deprecationHeaders: false,
};

export const ERROR_READINGS: Reading<ErrorBehaviour>[] = [
  {
    name: 'U10=contact-created-200',
    gap: 'U10',
    does: "answers a contact's creation with 200 (the contact and its Location) instead of 201",
    set: { resources: 'contact-created-200' },
    shows: ['resources.status-code'],
  },
  {
    name: 'U10=no-resources',
    gap: 'U10',
    does: 'exposes none of contacts, macros, rules and reports through the API: their routes answer 404 as any path the API does not have',
    set: { resources: 'absent' },
    shows: ['resources.status-code'],
  },
  {
    name: 'U16=plain-text',
    gap: 'U16',
    does: 'answers errors as text/plain: "404 Not Found: No ticket with this id.", each invalid field on a line below',
    set: { errorBody: 'plain-text' },
    shows: ['exchange.json-body', 'validation.problem-body'],
  },
  {
    name: 'U16=error-object',
    gap: 'U16',
    does: 'answers errors as application/json {"error": {code, message, request_id, details: [{field, message}]}}, not as a problem',
    set: { errorBody: 'error-object' },
    shows: ['exchange.content-type', 'validation.problem-body'],
  },
  {
    name: 'U17=403',
    gap: 'U17',
    does: 'refuses a request without a key with 403 instead of 401',
    set: { missingKeyStatus: 403 },
    shows: ['auth.missing-key-401'],
  },
  {
    name: 'U17=no-challenge',
    gap: 'U17',
    does: 'refuses a missing or invalid key without a WWW-Authenticate header',
    set: { wwwAuthenticate: false },
    // The check judges 401s only: beside U17=403 and U18=403 (`--reading other`) there is none,
    // and the probe of the missing key's answer records the challenge whatever its status.
    shows: ['auth.www-authenticate', 'probe:U17'],
  },
  {
    name: 'U18=403',
    gap: 'U18',
    does: 'refuses a request with a key it does not know with 403 instead of 401',
    set: { invalidKeyStatus: 403 },
    shows: ['auth.invalid-key-401'],
  },
  {
    name: 'U19=401',
    gap: 'U19',
    does: 'refuses a write with a read-only key with 401 instead of 403',
    set: { readOnlyWriteStatus: 401 },
    shows: ['auth.readonly-403'],
  },
  {
    name: 'U19=404',
    gap: 'U19',
    does: 'refuses a write with a read-only key with 404, as if the operation did not exist for that key',
    set: { readOnlyWriteStatus: 404 },
    shows: ['auth.readonly-403'],
  },
  {
    name: 'U19=code-forbidden',
    gap: 'U19',
    does: 'refuses a write with a read-only key with the error code forbidden instead of insufficient_scope',
    set: { readOnlyWriteCode: 'forbidden' },
    shows: ['auth.readonly-403'],
  },
  {
    name: 'U20=400',
    gap: 'U20',
    does: 'answers a body or query that violates the schema with 400 instead of 422',
    set: { validationStatus: 400 },
    shows: ['validation.status-422'],
  },
  {
    name: 'U20=malformed-422',
    gap: 'U20',
    does: 'answers a body that is not well-formed JSON with 422 instead of 400',
    set: { malformedJsonStatus: 422 },
    shows: ['validation.malformed-400'],
  },
  {
    name: 'U20=media-type-400',
    gap: 'U20',
    does: 'answers a body of another media type than JSON with 400 instead of 415',
    set: { wrongMediaTypeStatus: 400 },
    shows: ['tickets.status-code'],
  },
  {
    name: 'U21=foreign-403',
    gap: 'U21',
    does: "answers another workspace's ticket with 403 (without its data) instead of the unknown ticket's 404",
    set: { foreignTicketStatus: 403 },
    shows: ['isolation.same-as-unknown'],
  },
  {
    name: 'U21=unknown-400',
    gap: 'U21',
    does: 'answers a ticket id it never issued with 400 (invalid id) instead of 404',
    set: { unknownTicketStatus: 400 },
    shows: ['validation.unknown-404'],
  },
  {
    name: 'U27=deprecation-headers',
    gap: 'U27',
    does: 'announces the deprecation of v1 on every API answer: Deprecation (RFC 9745) and Sunset (RFC 8594)',
    set: { deprecationHeaders: true },
    shows: ['probe:U27'],
  },
];
