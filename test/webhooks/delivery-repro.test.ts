/**
 * A failed webhook check's repro runs as pasted in a POSIX shell: the delivery's exact bytes
 * (text, or any bytes), "signed with $SECRET_ENV" — the endpoint's secret variable, computed in
 * the shell with openssl — never a redacted signature relabelled as the API key; posted to the
 * receiver it names ($WEBHOOK_RECEIVER_URL) that verifies with that secret, it is accepted.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { createReceiver } from '../../examples/receiver/receiver.ts';
import { checks } from '../../core/checks/index.ts';
import { toFailure } from '../../core/checks/failure.ts';
import { type CapturedDelivery, deliveryAsExchange } from '../../core/webhooks/capture-receiver.ts';
import { deliveryRepro } from '../../core/webhooks/delivery-repro.ts';

const secret = 'whsec_repro\'$`"-3f9a';

function captured(raw: Buffer): CapturedDelivery {
  const hex = createHmac('sha256', secret).update(raw).digest('hex');
  return {
    receivedAt: 0,
    method: 'POST',
    path: '/hook/all',
    headers: {
      'content-type': 'application/json',
      'x-service-signature': `sha256=${hex.toUpperCase()}`,
      'service-signature': hex.toUpperCase(),
    },
    raw,
    answered: 204,
  };
}

const BODIES: Array<[string, Buffer]> = [
  [
    'hostile text',
    Buffer.from(
      JSON.stringify({
        event: 'ticket.created',
        ticket: { id: "t'1", subject: 'Zoë 😀 "q" \\ $HOME `id` %s\r\n\u2028' },
        customer: { name: "O'Brien", email: 'a@b.example' },
      }),
    ),
  ],
  [
    'bytes that are not UTF-8, a NUL, a trailing newline',
    Buffer.from([0x7b, 0xff, 0x00, 0x7d, 0x0a]),
  ],
];

for (const [name, raw] of BODIES) {
  test(`a delivery repro reproduces: ${name}`, async () => {
    const receiver = createReceiver({ secret });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook/all`;
      const d = captured(raw);
      // As the contract area reports it: the check's failure, its repro the delivery's.
      const ex = {
        ...deliveryAsExchange(d),
        repro: deliveryRepro(d, { url, secretEnv: 'HOOK_ALL_SECRET', note: 'uppercase hex' }),
      };
      const check = checks.get('webhook.signature-valid');
      const v = check.run(ex, { raw, secret });
      assert.ok(v, 'the uppercase signature fails the check');
      const repro = toFailure(check, v, ex).repro!;
      assert.match(repro, /signed with \$HOOK_ALL_SECRET/);
      assert.match(repro, /openssl dgst -sha256 -hmac "\$HOOK_ALL_SECRET"/);
      assert.doesNotMatch(repro, /HARNESS_API_KEY|REDACTED/);
      // It says what it needs: a receiver (the run's is gone) and where the secret comes from.
      assert.match(repro, /^# needs: WEBHOOK_RECEIVER_URL, a webhook receiver/m);
      assert.match(repro, /^# and HOOK_ALL_SECRET: the signing secret of the endpoint/m);
      assert.match(repro, /"\$WEBHOOK_RECEIVER_URL"$/);
      assert.ok(
        !repro.toLowerCase().includes(createHmac('sha256', secret).update(raw).digest('hex')),
      );
      const { stdout } = await promisify(execFile)('sh', ['-c', repro], {
        cwd: mkdtempSync(join(tmpdir(), 'repro-')),
        env: { PATH: process.env.PATH, HOOK_ALL_SECRET: secret, WEBHOOK_RECEIVER_URL: url },
      });
      assert.match(stdout, /^HTTP\/1\.1 204/, stdout);
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });
}
