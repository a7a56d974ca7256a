/** Refuses plain HTTP to anything but loopback: load traffic carries API keys in clear. */
import { isIP } from 'node:net';

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1';
  return false;
}

/** Throws (misuse) unless the URL is HTTPS, loopback, or explicitly allowed. */
export function assertSafeTarget(baseUrl: string, allowInsecureRemote: boolean): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`base URL is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`base URL must be http(s), got ${url.protocol}`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureRemote)
    throw new Error(
      `refusing plain HTTP to ${url.hostname}: API keys would cross the network in clear (use https, or --allow-insecure-remote)`,
    );
  return url;
}
