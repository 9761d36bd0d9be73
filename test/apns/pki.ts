// A throwaway PKI for the APNs tests, made by the real `openssl` in a temporary
// folder: a CA standing in for Apple's (it signs the stand-in server's TLS
// certificate and the Pass Type ID certificate the client presents), a Pass
// Type ID certificate shaped like Apple's (UID = pass type identifier,
// OU = team), one signed by a CA nobody trusts, and an EC P-256 `.p8` key
// for token authentication.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The pkpass tests' pass type (test/pkpass/pki.ts), so the end-to-end test signs
// the pass and pushes its updates under one identifier.
export const PASS_TYPE_IDENTIFIER = 'pass.com.example.test';
export const TEAM_IDENTIFIER = 'A93A5CM278';
export const KEY_IDENTIFIER = 'ABC123DEFG';

export interface ApnsPki {
  /** The CA the stand-in trusts for client certificates and the client trusts for the server. */
  readonly caPem: string;
  readonly serverCertPem: string;
  readonly serverKeyPem: string;
  /** The Pass Type ID certificate and key (the TLS client certificate). */
  readonly passCertPem: string;
  readonly passKeyPem: string;
  /** A Pass Type ID certificate for the same topic from a CA the stand-in does not trust. */
  readonly strangerCertPem: string;
  readonly strangerKeyPem: string;
  /** The `.p8` provider key (PKCS #8 PEM, EC P-256) and its public half. */
  readonly tokenKeyPem: string;
  readonly tokenPublicPem: string;
}

let made: ApnsPki | undefined;

/**
 * Makes the PKI once per test run: the first process to need it writes it under the run's folder
 * (test/global-setup.ts), later ones read it (five 2048-bit RSA keys are the slow part). Outside
 * `vitest run`, once per process.
 */
export function apnsPki(): ApnsPki {
  if (made !== undefined) return made;
  const cache = process.env['PASSMINT_TEST_CACHE'];
  const file = cache === undefined ? undefined : join(cache, 'apns-pki.json');
  if (file !== undefined && existsSync(file)) {
    made = JSON.parse(readFileSync(file, 'utf8')) as ApnsPki;
    return made;
  }
  made = makeApnsPki();
  if (file !== undefined) {
    // Written whole, then renamed: no process reads half of it.
    writeFileSync(`${file}.${process.pid}`, JSON.stringify(made));
    renameSync(`${file}.${process.pid}`, file);
  }
  return made;
}

function makeApnsPki(): ApnsPki {
  const dir = mkdtempSync(join(tmpdir(), 'passmint-apns-pki-'));
  const path = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  };
  try {
    writeFileSync(path('server.ext'), 'subjectAltName = IP:127.0.0.1, DNS:localhost\nextendedKeyUsage = serverAuth\n');
    writeFileSync(path('client.ext'), 'extendedKeyUsage = clientAuth\nkeyUsage = digitalSignature\n');
    for (const ca of ['ca', 'stranger-ca']) {
      openssl(
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${ca}.key`,
        '-out',
        `${ca}.pem`,
        '-days',
        '2',
        '-subj',
        `/O=Example Test/CN=${ca} for APNs tests`,
      );
    }
    const issue = (name: string, ca: string, subject: string, ext: string): void => {
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${ca}.pem`,
        '-CAkey',
        `${ca}.key`,
        '-CAcreateserial',
        '-out',
        `${name}.pem`,
        '-days',
        '2',
        '-extfile',
        ext,
      );
    };
    issue('server', 'ca', '/CN=127.0.0.1', 'server.ext');
    const passSubject = `/UID=${PASS_TYPE_IDENTIFIER}/CN=Pass Type ID: ${PASS_TYPE_IDENTIFIER}/OU=${TEAM_IDENTIFIER}/O=Example/C=US`;
    issue('pass', 'ca', passSubject, 'client.ext');
    issue('stranger', 'stranger-ca', passSubject, 'client.ext');
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'token.p8');
    openssl('pkey', '-in', 'token.p8', '-pubout', '-out', 'token.pub');
    const read = (name: string): string => readFileSync(path(name), 'utf8');
    return {
      caPem: read('ca.pem'),
      serverCertPem: read('server.pem'),
      serverKeyPem: read('server.key'),
      passCertPem: read('pass.pem'),
      passKeyPem: read('pass.key'),
      strangerCertPem: read('stranger.pem'),
      strangerKeyPem: read('stranger.key'),
      tokenKeyPem: read('token.p8'),
      tokenPublicPem: read('token.pub'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
