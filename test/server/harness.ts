/**
 * Test helpers for the reference deployment: an in-process service (no socket) on a fake clock,
 * and a tiny request function over `app.inject`.
 */
import { type ServiceOptions, buildService } from '../../server/app.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  json: any;
  text: string;
}

export function fakeClock(start = Date.UTC(2026, 10, 22, 9, 0, 0)) {
  let now = start;
  return {
    source: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export function makeService(opts: ServiceOptions = {}) {
  const clock = fakeClock();
  const built = buildService({ clockSource: clock.source, slaSweepMs: 60_000, ...opts });
  const { app, credentials } = built;
  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    key?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const h: Record<string, string> = { ...headers };
    if (key !== undefined) h.authorization = `Bearer ${key}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await app.inject({ method, url, headers: h, payload });
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, json, text: res.body };
  }
  const admin = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    call(method, url, undefined, body ?? (method === 'POST' ? {} : undefined), {
      'x-admin-token': credentials.adminToken,
    });
  const ws = credentials.workspaces;
  return { ...built, clock, call, admin, ws, close: () => app.close() };
}

export const newTicket = (extra: Record<string, unknown> = {}) => ({
  subject: 'Printer on fire',
  requester: { email: 'ada@example.com', name: 'Ada Lovelace' },
  ...extra,
});
