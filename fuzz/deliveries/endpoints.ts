/**
 * The endpoints the delivery check watches: planned (the ones configured in a dashboard, else one
 * per form with a random path and secret), registered for every event through the admin surface
 * and removed again, and named in failures.
 */
import { randomBytes } from 'node:crypto';
import { EVENT_SCHEMAS } from '../../core/checks/catalogue/webhooks.ts';
import { registerSecret } from '../../core/redact.ts';
import type { AdminAnswer, AdminClient } from '../../core/target/admin-client.ts';
import type { ConfiguredEndpoint } from './types.ts';
import type { EndpointForm } from '../../core/signature/index.ts';

export interface Endpoint {
  form: EndpointForm;
  id?: string;
  path: string;
  secret: string;
  /** Events it receives (dashboard endpoints; registered ones receive all). */
  events?: readonly string[];
  /** Key of its tally: the form, or the path of a dashboard endpoint. */
  label: string;
  /** The variable its secret is read from (dashboard endpoints), as repros name it. */
  secretEnv?: string;
}

/** How repros name a registered endpoint's secret, which the harness made up for the run. */
export const REGISTERED_SECRET_ENV = 'WEBHOOK_SECRET';

/** The configured endpoints, else one per form to register; every secret is redacted from now on. */
export function planEndpoints(
  configured: readonly ConfiguredEndpoint[] | undefined,
  forms: readonly EndpointForm[],
): Endpoint[] {
  const endpoints: Endpoint[] = configured
    ? configured.map((e) => ({ ...e, label: e.path || '/' }))
    : forms.map((form) => ({
        form,
        label: form,
        path: `/${form}/${randomBytes(6).toString('hex')}`,
        secret: `whsec_${randomBytes(24).toString('base64url')}`,
      }));
  for (const e of endpoints) registerSecret(e.secret);
  return endpoints;
}

function setupError(what: string, a: AdminAnswer): Error {
  return new Error(`delivery check: ${what} failed (${a.status}): ${a.text.slice(0, 200)}`);
}

/** Registers each endpoint under `receiverBase` for the API key's workspace (looked up unless given). */
export async function registerEndpoints(
  admin: AdminClient,
  apiKey: string,
  workspaceId: string | undefined,
  endpoints: Endpoint[],
  receiverBase: string,
): Promise<void> {
  if (!workspaceId) {
    const a = await admin.call('POST', '/admin/keys/lookup', { key: apiKey });
    const id = (a.json as { workspace_id?: unknown } | undefined)?.workspace_id;
    if (a.status !== 200 || typeof id !== 'string')
      throw setupError('looking up the workspace of the API key', a);
    workspaceId = id;
  }
  for (const e of endpoints) {
    const a = await admin.call('POST', '/admin/webhooks', {
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
}

/** Removes the endpoints {@link registerEndpoints} registered; a failed removal is not the verdict. */
export async function unregisterEndpoints(
  admin: AdminClient | undefined,
  endpoints: readonly Endpoint[],
): Promise<void> {
  for (const e of endpoints) {
    if (e.id)
      await admin
        ?.call('DELETE', `/admin/webhooks/${encodeURIComponent(e.id)}`)
        .catch(() => undefined);
  }
}

export function endpointName(e: Endpoint): string {
  return e.label === e.form ? `${e.form} endpoint` : `endpoint ${e.label} (form ${e.form})`;
}
