/** Self-signed certificates for loopback HTTPS: the harness's receivers and test targets. */
import { generate } from 'selfsigned';

/**
 * A self-signed certificate (and its key, PEM) for a loopback HTTPS server, valid for `hosts`: names become DNS SANs, IP literals IP SANs. Default
 * `['127.0.0.1', 'localhost']`. RSA 2048 / SHA-256, valid for 30 days from now.
 */
export async function generateSelfSignedCert(
  hosts: string[] = ['127.0.0.1', 'localhost'],
): Promise<{ key: string; cert: string }> {
  const first = hosts[0] ?? 'localhost';
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 30 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: first }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: hosts.map((h) => (isIpLiteral(h) ? { type: 7, ip: h } : { type: 2, value: h })),
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':');
}
