/**
 * Loopback facts the whole harness shares: whether a host is this machine (plain HTTP is allowed
 * only there: keys travel in clear otherwise), and a free loopback port for a listener that
 * starts later.
 */
import { readFileSync } from 'node:fs';
import { createServer, isIP } from 'node:net';

/** localhost (and *.localhost, RFC 6761), 127.0.0.0/8 and ::1, with or without brackets. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1';
  return false;
}

/** The kernel's ephemeral port range (outgoing connections take their local ports from it). */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (lo && hi && lo <= hi) return [lo, hi];
  } catch {
    // Not Linux: the IANA dynamic range is the usual default.
  }
  return [49152, 65535];
}

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * A port free right now on 127.0.0.1, for a listener that starts later (a deployment must be told
 * the receiver's URL before the receiver listens). Picked at random *below* the ephemeral range:
 * a port from `listen(0)` lies inside it, where any outgoing connection of a busy machine (a
 * parallel test suite makes thousands) may take it as its local port before we listen again.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1000, ephemeralLow - 1);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 in ${low}-${high} after 50 attempts`);
}
