import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createSaveUrl, GoogleWalletError, readGoogleCredentials } from '../../src/google/index.js';
import { testServiceAccount } from './keys.js';

const account = testServiceAccount();
const file = JSON.parse(account.json) as Record<string, unknown>;

function codeOf(input: string | object): string | undefined {
  try {
    readGoogleCredentials(input);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(GoogleWalletError);
    return (error as GoogleWalletError).code;
  }
}

describe('readGoogleCredentials', () => {
  test('reads a service-account key file, as text or object', () => {
    const credentials = readGoogleCredentials(account.json);
    expect(credentials).toMatchObject({ clientEmail: account.clientEmail, privateKeyId: 'a1b2c3d4e5f6', projectId: 'passmint-test' });
    expect(readGoogleCredentials(file).clientEmail).toBe(account.clientEmail);
  });

  test('reads a PKCS #1 RSA key too, and signs with it', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const credentials = readGoogleCredentials({ ...file, private_key: pem });
    expect(credentials.privateKeyPem).toBe(pem);
    expect(await createSaveUrl(credentials, { objects: [{ type: 'generic', object: { id: '1.a.b', classId: '1.a' } }] })).toMatch(
      /^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/,
    );
  });

  test('text that is not JSON: not-json', () => {
    expect(codeOf('-----BEGIN PRIVATE KEY-----')).toBe('not-json');
  });

  test('an OAuth client file: not-service-account, and the message says so', () => {
    const oauth = JSON.stringify({ installed: { client_id: 'x.apps.googleusercontent.com', client_secret: 's' } });
    expect(codeOf(oauth)).toBe('not-service-account');
    expect(() => readGoogleCredentials(oauth)).toThrow(/OAuth client/);
    expect(codeOf('[1]')).toBe('not-service-account');
  });

  test('no client_email: missing-client-email', () => {
    expect(codeOf({ ...file, client_email: undefined })).toBe('missing-client-email');
  });

  test('no private key: missing-private-key; not PEM: bad-private-key', () => {
    expect(codeOf({ ...file, private_key: '' })).toBe('missing-private-key');
    expect(codeOf({ ...file, private_key: 'hello' })).toBe('bad-private-key');
    expect(codeOf({ ...file, private_key: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' })).toBe('bad-private-key');
    expect(codeOf({ ...file, private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' })).toBe('bad-private-key');
  });

  test('an EC key: key-not-rsa', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    expect(codeOf({ ...file, private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() })).toBe('key-not-rsa');
    expect(codeOf({ ...file, private_key: privateKey.export({ type: 'sec1', format: 'pem' }).toString() })).toBe('key-not-rsa');
  });
});
