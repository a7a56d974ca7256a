/**
 * A webhook delivery as a POSIX shell repro that runs as pasted: the body exactly as received,
 * written to a file (its bytes are what is signed), the signature computed in the shell with
 * `openssl` from the endpoint's secret variable, and the POST to the receiver with the header
 * form(s) the delivery carried. The service's own signature values are never printed: a
 * delivery's repro is "signed with $SECRET_ENV", never a redacted value passed off as a key.
 *
 * It says what it needs, first: a receiver to post to — `$WEBHOOK_RECEIVER_URL`, since the one the
 * delivery reached was the run's own capture receiver, gone with the run (the example receiver
 * will do) — and the secret, by the variable it is read from and where that secret comes from.
 */
import { SIGNATURE_FORMS, SIGNATURE_HEADER, SIGNATURE_PREFIX } from '../signature/forms.ts';
import type { CapturedDelivery } from './capture-receiver.ts';

/** The variable repros name the secret of an endpoint the harness registered itself by. */
const REGISTERED_SECRET = 'WEBHOOK_SECRET';

/** `'…'` for the shell: everything literal, a `'` closed, escaped and reopened. */
const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `"…"` for the shell, with nothing in `s` expanded. */
const double = (s: string) => `"${s.replace(/["\\$`]/g, '\\$&')}"`;

/** Text a single-quoted `printf '%s'` carries byte for byte: valid UTF-8, no NUL. */
function asText(raw: Uint8Array): string | undefined {
  if (raw.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    return undefined;
  }
}

/** A command that writes exactly `raw` to `file`. */
function writeBody(raw: Uint8Array, file: string): string {
  const text = asText(raw);
  if (text !== undefined) return `printf '%s' ${single(text)} > ${file}`;
  // Octal escapes are POSIX printf; \x is not.
  const octal = [...raw].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
  return `printf '${octal}' > ${file}`;
}

export interface DeliveryReproOptions {
  /** Where the delivery was sent (the receiver URL, path included). */
  url: string;
  /** Name of the variable holding the endpoint's signing secret, e.g. `HOOK_ALL_SECRET`. */
  secretEnv: string;
  /**
   * Where that secret comes from. Default: the endpoint's, from the endpoints file's secret_env;
   * for the endpoint the harness registered itself (`WEBHOOK_SECRET`): made up for the run.
   */
  secretFrom?: string;
  /** What the service sent wrong, in a comment (never a signature value). */
  note?: string;
}

/** The shell lines that replay `d` signed as documented with `$secretEnv`. */
export function deliveryRepro(d: CapturedDelivery, o: DeliveryReproOptions): string {
  const lower = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const forms = SIGNATURE_FORMS.filter(
    (f) => lower[SIGNATURE_HEADER[f].toLowerCase()] !== undefined,
  );
  const sent = forms.length > 0 ? forms : SIGNATURE_FORMS;
  const contentType = lower['content-type'] ?? 'application/json';
  const from =
    o.secretFrom ??
    (o.secretEnv === REGISTERED_SECRET
      ? 'the secret of an endpoint the run registered itself, made up for the run and not kept: any value your receiver verifies with'
      : `the signing secret of the endpoint it reached (secret_env ${o.secretEnv} of HARNESS_WEBHOOK_ENDPOINTS)`);
  const lines = [
    `# the delivery as received, signed with $${o.secretEnv} (the endpoint's secret; set it first)`,
    `# needs: WEBHOOK_RECEIVER_URL, a webhook receiver to post it to (it reached ${o.url.replace(/\n/g, ' ')}, the run's capture receiver, gone with the run; e.g. the example receiver: WEBHOOK_SECRET="$${o.secretEnv}" PORT=8099 npx tsx examples/receiver/receiver.ts, then WEBHOOK_RECEIVER_URL=http://127.0.0.1:8099/)`,
    `# and ${o.secretEnv}: ${from}`,
    ...(o.note ? [`# the service sent: ${o.note.replace(/\n/g, ' ')}`] : []),
    writeBody(d.raw, 'delivery.body'),
    `sig=$(openssl dgst -sha256 -hmac "$${o.secretEnv}" < delivery.body | sed 's/^.*= //')`,
    [
      'curl -i -X POST',
      `-H ${double(`Content-Type: ${contentType}`)}`,
      ...sent.map((f) =>
        f === 'prefixed'
          ? `-H "${SIGNATURE_HEADER[f]}: ${SIGNATURE_PREFIX}$sig"`
          : `-H "${SIGNATURE_HEADER[f]}: $sig"`,
      ),
      '--data-binary @delivery.body',
      '"$WEBHOOK_RECEIVER_URL"',
    ].join(' '),
  ];
  return lines.join('\n');
}
