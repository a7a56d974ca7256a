/**
 * The one client of the reference deployment's admin surface (`x-admin-token`): webhook
 * endpoints, key lookup and rotation, the clock, delivery flushes. Only the reference deployment
 * has one; on a real target the harness works without it (dashboard endpoints, configured keys).
 * Through the one client (core/http/client.ts) without recording: admin calls are set-up, never
 * evidence, and never belong in a transcript or a Playwright trace (the token is a secret).
 */
import { createClient } from '../http/client.ts';
import { undiciTransport } from '../http/undici-transport.ts';

export interface AdminAnswer {
  status: number;
  /** Parsed body when it is JSON, else undefined. */
  json: any;
  text: string;
}

export interface AdminClient {
  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<AdminAnswer>;
  /** The workspace and key id of `key`, or undefined when the deployment does not know it. */
  lookupKey(key: string): Promise<{ id: string; workspace_id: string } | undefined>;
}

export function adminClient(baseUrl: string, token: string, timeoutMs = 20_000): AdminClient {
  // Unpaced (the admin surface has no rate limit) and unrecorded.
  const http = createClient({ baseUrl, transport: undiciTransport(), timeoutMs, pace: false });
  const call: AdminClient['call'] = async (method, path, body) => {
    const a = await http.send(method, path, {
      key: null,
      headers: {
        'x-admin-token': token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    if (a.status === undefined)
      throw new Error(`admin surface ${method} ${path}: no answer (${a.error})`);
    return { status: a.status, json: a.json as any, text: a.response!.bodyText };
  };
  return {
    call,
    async lookupKey(key) {
      const r = await call('POST', '/admin/keys/lookup', { key });
      return r.status === 200 ? r.json : undefined;
    },
  };
}
