import { execFileSync } from 'node:child_process';

/** Runs the real `openssl` in `cwd`; throws with its stderr when it fails. */
export function openssl(cwd: string, ...args: string[]): string {
  return execFileSync('openssl', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Whether OpenSSL's legacy provider (RC2, 40-bit PBE) can be loaded here. */
export function hasLegacyProvider(): boolean {
  try {
    return /legacy/i.test(execFileSync('openssl', ['list', '-providers', '-provider', 'legacy'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return false;
  }
}

/**
 * A throwaway Pass Type ID identity: a self-signed RSA 2048 certificate whose
 * subject holds the pass type identifier (UID) and team (OU) as Apple's do.
 */
export function makeIdentity(cwd: string, name = 'pass'): { certificate: string; key: string } {
  const certificate = `${name}-cert.pem`;
  const key = `${name}-key.pem`;
  openssl(
    cwd,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    certificate,
    '-days',
    '30',
    '-subj',
    '/UID=pass.com.example.cli/CN=Pass Type ID: pass.com.example.cli/OU=A93A5CM278/O=Example Events/C=US',
  );
  return { certificate, key };
}
