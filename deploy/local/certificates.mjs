// TLS material of the local servers: a self-signed certificate for localhost made with openssl,
// and PEM files in the form a Java .properties file takes them (Kafka's PEM key store).
// Dependency-free: only node: builtins.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tailText } from './processes.mjs';

/**
 * <dir>/<name>.crt and <dir>/<name>.key: a certificate for `names` (localhost and 127.0.0.1 by
 * default; `IP:` or `DNS:` each) and its unencrypted key, created on the first call and reused
 * after. Self-signed, the certificate is its own CA: a client trusts it by trusting <name>.crt.
 * `what` names it in the error.
 */
export function selfSignedCertificate(dir, name, what, names = ['DNS:localhost', 'IP:127.0.0.1']) {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  if (!fs.existsSync(cert) || !fs.existsSync(key)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The certificate last: its presence means both files are complete.
    const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '825', '-subj', `/CN=${names[0].replace(/^\w+:/, '')}`,
      '-addext', `subjectAltName=${names.join(',')}`, '-keyout', key, '-out', `${cert}.tmp`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${what}: openssl could not create it (is openssl installed?):\n${tailText(`${r.stderr ?? ''}${r.error?.message ?? ''}`)}`);
    fs.renameSync(`${cert}.tmp`, cert);
  }
  return { cert, key };
}

/** A PEM file as one line of a .properties file (Java reads \n back as a newline). */
export const pemProperty = (file) => fs.readFileSync(file, 'utf8').trim().replace(/\r?\n/g, '\\n');
