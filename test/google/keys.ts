// Test keys for Google Wallet, made with node:crypto: a service account (RSA) and callback keys (EC P-256).
import { generateKeyPairSync } from 'node:crypto';

export interface TestServiceAccount {
  /** The key file as Google Cloud gives it. */
  readonly json: string;
  readonly clientEmail: string;
  readonly privateKeyPem: string;
  readonly publicKeyPem: string;
}

let shared: TestServiceAccount | undefined;

/** A service-account key file with a fresh 2048-bit RSA key (one per test process unless `fresh`). */
export function testServiceAccount(fresh = false): TestServiceAccount {
  if (shared !== undefined && !fresh) return shared;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const clientEmail = 'wallet-issuer@passmint-test.iam.gserviceaccount.com';
  const json = JSON.stringify({
    type: 'service_account',
    project_id: 'passmint-test',
    private_key_id: 'a1b2c3d4e5f6',
    private_key: privateKeyPem,
    client_email: clientEmail,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
  });
  const account = { json, clientEmail, privateKeyPem, publicKeyPem };
  if (!fresh) shared = account;
  return account;
}
