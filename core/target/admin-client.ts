/**
 * The one client of the reference deployment's admin surface (`x-admin-token`): webhook
 * endpoints, key lookup and rotation, the clock, delivery flushes. Only the reference deployment
 * has one; on a real target the harness works without it (dashboard endpoints, configured keys).
 * Plain fetch, not a recording client: admin calls are set-up, never evidence, and never belong
 * in a transcript or a Playwright trace (the token is a secret).
 */
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
  const call: AdminClient['call'] = async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        'x-admin-token': token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    }).catch((e: Error) => {
      // fetch says only "fetch failed"; the cause names the refused connection or the timeout.
      const cause = (e.cause as Error | undefined)?.message ?? e.message;
      throw new Error(`admin surface ${method} ${path}: no answer (${cause})`);
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  };
  return {
    call,
    async lookupKey(key) {
      const r = await call('POST', '/admin/keys/lookup', { key });
      return r.status === 200 ? r.json : undefined;
    },
  };
}
