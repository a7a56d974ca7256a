/** Refuses plain HTTP to anything but loopback: load traffic carries API keys in clear. */
import { isLoopbackHost } from '../core/net.ts';

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
