/**
 * Dashboard mode of the reference deployment: the webhook endpoints a user would click together
 * in the service's dashboard, seeded from the harness's own endpoints file format
 * (core/webhooks/endpoints-file.ts), on the workspace whose key the credentials file gives as
 * HARNESS_API_KEY. A secret_env variable that is not set gets a fresh secret, written (never
 * printed) to the credentials env file so the harness can read it.
 */
import { randomBytes } from 'node:crypto';
import { readEndpointsFile } from '../core/webhooks/endpoints-file.ts';
import type { WebhookDispatcher } from './webhooks/dispatcher.ts';

export function seedDashboardEndpoints(
  dispatcher: WebhookDispatcher,
  opts: { file: string; publicUrl: string; workspaceId: string; env: NodeJS.ProcessEnv },
): { envLines: string[]; count: number } {
  const specs = readEndpointsFile(opts.file);
  const base = opts.publicUrl.replace(/\/+$/, '');
  const envLines: string[] = [];
  for (const s of specs) {
    let secret = opts.env[s.secretEnv];
    if (!secret) {
      secret = `whsec_${randomBytes(18).toString('base64url')}`;
    }
    envLines.push(`${s.secretEnv}=${secret}`);
    dispatcher.addEndpoint({
      workspaceId: opts.workspaceId,
      url: `${base}${s.path}`,
      events: s.events,
      secret,
      // A dashboard that does not let the user choose: the reference's default, both headers.
      form: s.form === 'unknown' ? 'both' : s.form,
    });
  }
  return { envLines, count: specs.length };
}
