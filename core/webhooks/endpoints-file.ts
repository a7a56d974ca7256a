/**
 * The webhook endpoints a user set up in the service's dashboard (the API cannot manage them:
 * "Managing webhook endpoints through the API: not shown"), read from HARNESS_WEBHOOK_ENDPOINTS
 * (YAML or JSON). The same file seeds the reference deployment's dashboard mode
 * (`npm run serve -- --no-admin --webhook-endpoints FILE`), so both sides agree by construction.
 *
 *   endpoints:
 *     - path: /hook/all          # appended to HARNESS_WEBHOOK_URL
 *       events: [ticket.created, ticket.replied, ticket.closed, customer.replied]
 *       secret_env: HOOK_ALL_SECRET
 *       form: both               # prefixed | plain | both | unknown (unknown: observe, U15)
 */
import { readFileSync } from 'node:fs';
import { CORE_SCHEMA, load as parseYaml, YAMLException } from 'js-yaml';

import { DELIVERY_FORMS, type EndpointForm } from '../signature/forms.ts';

const ENDPOINT_FORMS: readonly EndpointForm[] = [...DELIVERY_FORMS, 'unknown'];

/** Every event the contract suite can trigger through the API (documented first, U12 after). */
export const TRIGGERABLE_EVENTS = [
  'ticket.created',
  'ticket.replied',
  'ticket.closed',
  'customer.replied',
  'agent.replied',
  'ticket.note_added',
  'ticket.status_changed',
  'macro.applied',
] as const;

export interface EndpointSpec {
  /** Path under HARNESS_WEBHOOK_URL ('' = the URL itself). */
  path: string;
  events: string[];
  /** Name of the environment variable that holds the signing secret. */
  secretEnv: string;
  form: EndpointForm;
}

export interface DashboardEndpoint extends EndpointSpec {
  secret: string;
}

export class EndpointsFileError extends Error {
  override name = 'EndpointsFileError';
}

/** Validates a parsed endpoints document; one message per mistake, all reported at once. */
export function validateEndpoints(doc: unknown, source = 'endpoints file'): EndpointSpec[] {
  const errors: string[] = [];
  const list = (doc as { endpoints?: unknown } | null)?.endpoints;
  if (!doc || typeof doc !== 'object' || !Array.isArray(list) || list.length === 0) {
    throw new EndpointsFileError(
      `${source}: expected a top-level 'endpoints:' list with at least one endpoint`,
    );
  }
  const out: EndpointSpec[] = [];
  const seen = new Set<string>();
  list.forEach((raw, i) => {
    const at = `${source}: endpoints[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push(`${at}: expected a mapping with path, events, secret_env, form`);
      return;
    }
    const e = raw as Record<string, unknown>;
    const path = e.path ?? '';
    if (typeof path !== 'string' || (path !== '' && !/^\/[^\s?#]*$/.test(path)))
      errors.push(`${at}.path: expected a path starting with '/' (no query), got ${show(path)}`);
    else if (seen.has(path)) errors.push(`${at}.path: '${path}' is listed twice`);
    else seen.add(path);
    const events = e.events;
    if (
      !Array.isArray(events) ||
      events.length === 0 ||
      !events.every((x) => typeof x === 'string' && /^[a-z_]+\.[a-z_]+$/.test(x))
    )
      errors.push(
        `${at}.events: expected a non-empty list of event names like ticket.created, got ${show(events)}`,
      );
    const secretEnv = e.secret_env;
    if (typeof secretEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(secretEnv))
      errors.push(
        `${at}.secret_env: expected the name of an environment variable, got ${show(secretEnv)}`,
      );
    const form = e.form ?? 'unknown';
    if (!ENDPOINT_FORMS.includes(form as EndpointForm))
      errors.push(`${at}.form: expected one of ${ENDPOINT_FORMS.join(', ')}, got ${show(form)}`);
    out.push({
      path: path as string,
      events: [...new Set(events as string[])],
      secretEnv: secretEnv as string,
      form: form as EndpointForm,
    });
  });
  if (errors.length > 0) throw new EndpointsFileError(errors.join('\n'));
  return out;
}

export function readEndpointsFile(file: string): EndpointSpec[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new EndpointsFileError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    // The YAML 1.2 core schema, as for the spec (core/spec/load-spec.ts): a date stays text.
    doc = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text, { schema: CORE_SCHEMA });
  } catch (e) {
    throw new EndpointsFileError(`${file}: not valid YAML/JSON: ${parseError(e)}`);
  }
  return validateEndpoints(doc, file);
}

/** A YAML mistake with the line and column it is on, and the lines around it. */
function parseError(e: unknown): string {
  if (!(e instanceof YAMLException) || !e.mark) return (e as Error).message;
  const { line, column, snippet } = e.mark;
  return `${e.reason} at line ${line + 1}, column ${column + 1}${snippet ? `:\n\n${snippet}` : ''}`;
}

/** Attaches each endpoint's secret from `env`; a missing variable is an error naming it. */
export function withSecrets(
  specs: EndpointSpec[],
  env: Record<string, string | undefined>,
  source: string,
): DashboardEndpoint[] {
  const missing = specs.filter((s) => !env[s.secretEnv]).map((s) => s.secretEnv);
  if (missing.length > 0)
    throw new EndpointsFileError(
      `${source}: secret_env variable(s) not set: ${[...new Set(missing)].join(', ')}`,
    );
  return specs.map((s) => ({ ...s, secret: env[s.secretEnv]! }));
}

function show(v: unknown): string {
  return v === undefined ? '(missing)' : JSON.stringify(v);
}
