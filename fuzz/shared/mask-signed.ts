/**
 * Masks every digest computed with a secret over known bodies, wherever it appears in a text: the
 * valid HMAC-SHA256 and the HMAC-SHA1 of each body, in any case, whole or cut (16 hex digits or
 * more of one), or one or two digits away from one (a flipped bit). Header values are masked by
 * name (transcript.ts); this catches the rest — a receiver that echoes the expected signature in
 * its 401 body, a note, a reason — so no output hands its reader a valid signature.
 */
import { createHmac } from 'node:crypto';

/** Shortest run of hex digits taken for a cut digest. */
const MIN_CUT = 16;

function digests(secret: string, bodies: readonly Uint8Array[]): string[] {
  return bodies.flatMap((b) => [
    createHmac('sha256', secret).update(b).digest('hex'),
    createHmac('sha1', secret).update(b).digest('hex'),
  ]);
}

/** Digits that differ between two equally long hex strings. */
function distance(a: string, b: string): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** Whether `run` (lowercase hex) is, or is close to, a digest or a cut of one. */
function derived(run: string, all: readonly string[]): boolean {
  return all.some((d) => d.includes(run) || (run.length === d.length && distance(run, d) <= 2));
}

/** `text` with every digest of `bodies` under `secret` (see above) replaced by `replacement`. */
export function maskSignedMaterial(
  text: string,
  secret: string,
  bodies: readonly Uint8Array[],
  replacement: string,
): string {
  if (!secret || bodies.length === 0) return text;
  const all = digests(secret, bodies);
  return text.replace(new RegExp(`[0-9a-fA-F]{${MIN_CUT},}`, 'g'), (run) => {
    const lower = run.toLowerCase();
    if (derived(lower, all)) return replacement;
    // A digest inside a longer run (glued to other hex digits) is masked where it sits.
    let out = run;
    for (const d of all) {
      const at = out.toLowerCase().indexOf(d);
      if (at >= 0) out = out.slice(0, at) + replacement + out.slice(at + d.length);
    }
    return out;
  });
}
