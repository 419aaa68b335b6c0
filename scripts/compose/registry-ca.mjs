// Prints, as PEM, the root certificate this machine's TLS to the npm registry is signed by (here a
// local CA that intercepts TLS), for npm inside image builds to trust (npm_config_ca).
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';

const host = new URL(process.env.npm_config_registry ?? 'https://registry.npmjs.org/').hostname;
const ca = readFileSync(process.env.AC_COMPOSE_CA_BUNDLE ?? '/etc/ssl/certs/ca-certificates.crt');
const socket = connect({ host, port: 443, servername: host, ca, timeout: 10_000 }, () => {
  let cert = socket.getPeerCertificate(true);
  while (cert.issuerCertificate && cert.issuerCertificate !== cert) cert = cert.issuerCertificate;
  const base64 = cert.raw.toString('base64').replace(/(.{64})/g, '$1\n');
  process.stdout.write(`-----BEGIN CERTIFICATE-----\n${base64.trim()}\n-----END CERTIFICATE-----\n`);
  socket.end();
});
socket.on('timeout', () => socket.destroy(new Error(`no TLS answer from ${host} within 10 s`)));
socket.on('error', (err) => {
  process.stderr.write(`cannot read the registry's certificate chain: ${err.message}\n`);
  process.exit(1);
});
