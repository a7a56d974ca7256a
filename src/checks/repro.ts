/** A curl command reproducing an exchange, with every secret redacted. */
import { redact } from '../redact.ts';
import type { Exchange } from './types.ts';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlRepro(ex: Exchange): string {
  const parts = ['curl', '-i', '-X', ex.request.method];
  for (const [k, v] of Object.entries(ex.request.headers)) {
    if (k === 'content-length' || k === 'host') continue;
    const value =
      k.toLowerCase() === 'authorization' ? v.replace(/^(Bearer\s+).*/i, '$1$HARNESS_API_KEY') : v;
    parts.push('-H', shellQuote(`${k}: ${value}`));
  }
  if (ex.request.body !== undefined) {
    const body =
      ex.request.body.length > 2000
        ? `${ex.request.body.slice(0, 2000)}…(truncated)`
        : ex.request.body;
    parts.push('--data-raw', shellQuote(body));
  }
  parts.push(shellQuote(ex.request.url));
  return redact(parts.join(' ')).replace('[REDACTED]', '$HARNESS_API_KEY');
}
