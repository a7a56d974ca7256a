/**
 * What a failed preflight means to the person running the gate: the cause in one line and what
 * to fix, for the verdict "target unusable: …" (console, summary.json, junit.xml, index.html).
 * An unusable target runs no check: it says nothing about the contract, so it is exit 2 ("could
 * not run"), never a broken documented rule.
 */
import type { Preflight } from './preflight.ts';

export interface Unusable {
  /** What happened, with the URL requested. */
  cause: string;
  /** What to change to make the run possible. */
  fix: string;
}

const TLS_TRUST =
  'for a private CA set NODE_EXTRA_CA_CERTS=/path/to/ca.pem (certificates are still verified); HARNESS_ALLOW_INSECURE=1 turns verification off for this run';

/** The base URL without a trailing /v1 (the harness adds /v1 itself), if it has one. */
export function withoutV1(baseUrl: string): string | undefined {
  const u = new URL(baseUrl);
  if (!/\/v1\/?$/.test(u.pathname)) return undefined;
  u.pathname = u.pathname.replace(/\/v1\/?$/, '');
  return u.toString().replace(/\/+$/, '');
}

function tlsFix(p: Preflight): string {
  if (/EPROTO|wrong version number|ERR_SSL_WRONG_VERSION/i.test(`${p.code} ${p.detail}`))
    return 'the port does not speak TLS: is the URL http://, or the port wrong?';
  if (/ALTNAME|hostname|does not match/i.test(`${p.code} ${p.detail}`))
    return 'the certificate is not for this host name: use the host name the certificate names in HARNESS_BASE_URL';
  if (/EXPIRED|NOT_YET_VALID/i.test(p.code ?? ''))
    return `renew the deployment's certificate; ${TLS_TRUST}`;
  return `the certificate is not trusted: ${TLS_TRUST}`;
}

function redirectFix(p: Preflight, baseUrl: string): string {
  let to: URL | undefined;
  try {
    to = p.location ? new URL(p.location, p.url) : undefined;
  } catch {
    to = undefined;
  }
  const from = new URL(baseUrl);
  if (to && from.protocol === 'http:' && to.protocol === 'https:' && to.host === from.host)
    return `the deployment redirects to HTTPS: set HARNESS_BASE_URL=https://${from.host}${from.pathname.replace(/\/+$/, '')}`;
  return 'the v1 API answers without redirects: point HARNESS_BASE_URL at the API itself, not at a login page, load balancer or another host in front of it';
}

function notFoundFix(baseUrl: string): string {
  const bare = withoutV1(baseUrl);
  if (bare)
    return `HARNESS_BASE_URL ends in /v1 and the harness adds /v1 itself: set HARNESS_BASE_URL=${bare}`;
  return 'HARNESS_BASE_URL must be the URL under which /v1/tickets is served (e.g. https://api.example.com, or https://example.com/api when the API sits under /api)';
}

/** Undefined when the preflight found a target the suite can test. */
export function unusableTarget(p: Preflight, baseUrl: string): Unusable | undefined {
  const host = new URL(baseUrl).host;
  const req = `GET ${p.url}`;
  switch (p.state) {
    case 'ok':
      return undefined;
    case 'refused':
      return {
        cause: `connection refused by ${host} (${p.code ?? 'ECONNREFUSED'})`,
        fix: 'start the deployment, or correct the host and port of HARNESS_BASE_URL',
      };
    case 'closed':
      return {
        cause: `${host} closed the connection without answering ${req} (${p.code ?? 'closed'})`,
        fix: 'check the deployment and any proxy in front of it (no healthy backend?), and that the port speaks HTTP(S) as the URL says',
      };
    case 'dns':
      return {
        cause: `host ${new URL(baseUrl).hostname} not found (${p.code ?? 'DNS'})`,
        fix: 'correct the host name of HARNESS_BASE_URL, or give this runner DNS and network access to it',
      };
    case 'timeout':
      return {
        cause: `${req}: ${p.detail}`,
        fix: 'the deployment accepts connections but does not answer: check its health and any proxy in front of it (raise HARNESS_TIMEOUT_MS only if it is merely slow)',
      };
    case 'tls':
      return { cause: `${req}: ${p.detail}`, fix: tlsFix(p) };
    case 'not-json':
      return {
        cause: `${req} answered ${p.detail}`,
        fix: 'HARNESS_BASE_URL must be the base URL of the API (the harness adds /v1/…), not a web page, login page or proxy error page',
      };
    case 'server-error':
      return {
        cause: `${req} answered HTTP ${p.status}`,
        fix: 'the deployment is failing (see its logs); run the gate again once it is healthy',
      };
    case 'key-refused':
      return {
        cause: `${req} answered HTTP ${p.status}: the deployment refused HARNESS_API_KEY`,
        fix: `set HARNESS_API_KEY to a full-access key of a workspace of this deployment (not revoked, not rotated, not a read-only key)${p.status === 403 ? '; a 403 may also mean this runner is not allowed to reach it' : ''}`,
      };
    case 'not-found':
      return { cause: `${req} answered HTTP 404`, fix: notFoundFix(baseUrl) };
    case 'redirect':
      return {
        cause: `${req} answered a redirect: ${p.detail}`,
        fix: redirectFix(p, baseUrl),
      };
    default:
      return {
        cause: `${req}: ${p.detail}`,
        fix: 'check HARNESS_BASE_URL and that this runner can reach it',
      };
  }
}

/** The verdict line's text: "target unusable: <cause> — <what to fix>". */
export const unusableText = (u: Unusable) => `target unusable: ${u.cause} — ${u.fix}`;
