/**
 * A curl command reproducing an exchange, that runs as pasted into a POSIX shell: every secret
 * becomes the environment variable the user holds it in (`$HARNESS_API_KEY`,
 * `$HARNESS_READONLY_KEY`, `$HARNESS_OTHER_WORKSPACE_KEY`: the key actually sent, named when it
 * was registered, core/redact.ts), so the replay sends the same request. Headers are
 * double-quoted so those variables expand; the body and the URL are single-quoted (taken
 * literally) with any variable spliced in double quotes. A secret without a variable stays
 * masked; a key the harness invented to be refused (`sk_harness_invalid_…`) is shown as sent.
 */
import { redact, secretVariable, secretsIn } from '../redact.ts';
import { shownText } from '../shown.ts';
import type { Exchange } from './types.ts';

/** A run of literal text, or a reference to an environment variable. */
type Piece = { text: string } | { variable: string };

/** Splits `value` at every registered secret: named ones become variables, others a mask. */
function pieces(value: string, secrets: readonly string[]): Piece[] {
  let out: Piece[] = [{ text: value }];
  for (const s of secrets) {
    out = out.flatMap((p): Piece[] => {
      if (!('text' in p) || !p.text.includes(s)) return [p];
      const name = secretVariable(s);
      const parts = p.text.split(s);
      return parts.flatMap((t, i) => [
        ...(i > 0 ? [name ? { variable: name } : { text: '[REDACTED]' }] : []),
        { text: t },
      ]);
    });
  }
  // Literal text is redacted by shape too (an unregistered bearer token, a signature).
  return out
    .map((p) => ('text' in p ? { text: redact(p.text) } : p))
    .filter((p) => !('text' in p) || p.text !== '');
}

/** `$NAME`, braced when the next character would extend the name. */
const variableRef = (name: string, next: string | undefined) =>
  next !== undefined && /^[A-Za-z0-9_]/.test(next) ? `\${${name}}` : `$${name}`;

const firstChar = (p: Piece | undefined) => (p && 'text' in p ? p.text[0] : undefined);

/**
 * One double-quoted shell word: `"`, `$`, backtick and backslash escaped in literal text, so only
 * the variables expand. `!` is put in single quotes: interactive bash expands it even inside
 * double quotes (history), which would break a pasted command.
 */
export function doubleQuoted(ps: readonly Piece[]): string {
  const body = ps
    .map((p, i) =>
      'text' in p
        ? p.text
            .replace(/[\\"$`]/g, (c) => `\\${c}`)
            .split('!')
            .join(`"'!'"`)
        : variableRef(p.variable, firstChar(ps[i + 1])),
    )
    .join('');
  return `"${body}"`;
}

/** One shell word of literal text in single quotes, variables spliced in double quotes. */
export function singleQuoted(ps: readonly Piece[]): string {
  if (ps.length === 0) return "''";
  return ps
    .map((p) =>
      'text' in p
        ? `'${p.text.replace(/'/g, `'\\''`)}'`
        : `"${variableRef(p.variable, undefined)}"`,
    )
    .join('');
}

/** Characters of the body a repro carries; longer ones are cut (and say their size). */
const REPRO_BODY = 2000;
/** Characters of a URL or header line: a target's cursor or ETag may be any size. */
const REPRO_LINE = 4096;

export function curlRepro(ex: Exchange): string {
  const { method, url, headers, body } = ex.request;
  // Cut before anything else reads them, and never through a secret (shown.ts).
  const sentBody = body === undefined ? undefined : shownText(body, REPRO_BODY);
  const sentUrl = shownText(url, REPRO_LINE);
  const lines = Object.entries(headers)
    .filter(([k]) => k !== 'content-length' && k !== 'host')
    .map(([k, v]) => shownText(`${k}: ${v}`, REPRO_LINE));
  const secrets = secretsIn([sentUrl, ...lines, sentBody ?? ''].join('\n'));
  const parts = ['curl', '-i', '-X', method];
  for (const line of lines) parts.push('-H', doubleQuoted(pieces(line, secrets)));
  if (sentBody !== undefined) parts.push('--data-raw', singleQuoted(pieces(sentBody, secrets)));
  parts.push(singleQuoted(pieces(sentUrl, secrets)));
  return parts.join(' ');
}
