/**
 * Trusting a staging certificate. A private CA is trusted with Node's own NODE_EXTRA_CA_CERTS
 * (read at start-up by every Node process of the run: undici and fetch here, Playwright's
 * request context in the workers; certificates are still verified; k6 reads Go's
 * SSL_CERT_FILE instead). HARNESS_ALLOW_INSECURE=1 on
 * an https:// target turns verification off for the run instead — its own requests and its
 * children (the Playwright workers, k6) — and Node prints a warning saying so.
 */
import type { HarnessConfig } from '../config.ts';

/** The variables that turn certificate verification off, when the config asks for it. */
export function insecureTlsEnv(
  cfg: Pick<HarnessConfig, 'allowInsecure' | 'baseUrl'>,
): Record<string, string> {
  if (!cfg.allowInsecure || !cfg.baseUrl?.startsWith('https:')) return {};
  return { NODE_TLS_REJECT_UNAUTHORIZED: '0', K6_INSECURE_SKIP_TLS_VERIFY: 'true' };
}

/**
 * Applies `vars` to this process's environment (Node reads NODE_TLS_REJECT_UNAUTHORIZED at each
 * connection) and returns how to put it back, so a library caller's process is left as it was.
 */
export function applyEnv(vars: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
