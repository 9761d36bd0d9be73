import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createSaveUrl, GoogleWalletError, readGoogleCredentials, toGoogleWallet } from '../../src/google/index.js';
import type { Pass } from '../../src/index.js';
import { testServiceAccount } from './keys.js';

const account = testServiceAccount();
const credentials = readGoogleCredentials(account.json);
const pass: Pass = {
  formatVersion: 1,
  passTypeIdentifier: 'pass.com.example.event',
  serialNumber: 'A-1',
  teamIdentifier: 'A93A5CM278',
  organizationName: 'Example Events',
  description: 'Ticket',
  generic: { primaryFields: [{ key: 'event', label: 'Event', value: 'Concert' }] },
};

function decode(url: string): { header: Record<string, unknown>; claims: Record<string, unknown>; signedOk: boolean } {
  const jwt = url.slice('https://pay.google.com/gp/v/save/'.length);
  const [header, claims, signature] = jwt.split('.') as [string, string, string];
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>,
    signedOk: verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), createPublicKey(account.publicKeyPem), Buffer.from(signature, 'base64url')),
  };
}

describe('createSaveUrl', () => {
  test('an RS256 JWT with the claims Google reads, verifiable with the service account public key', async () => {
    const { type, class: walletClass, object } = toGoogleWallet(pass, { issuerId: '3388000000012345678' });
    const url = await createSaveUrl(
      credentials,
      { objects: [{ type, object }], classes: [{ type, class: walletClass }], origins: ['https://example.com'] },
      { now: 1_800_000_000_000 },
    );
    expect(url.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const { header, claims, signedOk } = decode(url);
    expect(signedOk).toBe(true);
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'a1b2c3d4e5f6' });
    expect(claims).toEqual({
      iss: account.clientEmail,
      aud: 'google',
      typ: 'savetowallet',
      iat: 1_800_000_000,
      origins: ['https://example.com'],
      payload: { genericClasses: [walletClass], genericObjects: [object] },
    });
  });

  test('a reference to an inserted object is short', async () => {
    const url = await createSaveUrl(credentials, {
      objects: [{ type: 'loyalty', object: { id: '3388000000012345678.a.b', classId: '3388000000012345678.a' } }],
    });
    expect(decode(url).claims['payload']).toEqual({ loyaltyObjects: [{ id: '3388000000012345678.a.b', classId: '3388000000012345678.a' }] });
  });

  test('over 1,800 characters: save-link-too-long, naming the insert-first way', async () => {
    const object = { id: '3388000000012345678.a.b', classId: '3388000000012345678.a', textModulesData: [{ id: 'x', body: 'y'.repeat(1500) }] };
    const error = await createSaveUrl(credentials, { objects: [{ type: 'generic', object }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GoogleWalletError);
    expect((error as GoogleWalletError).code).toBe('save-link-too-long');
    expect((error as GoogleWalletError).message).toMatch(/Insert the class and object first.*\{ id, classId \}/);
  });

  test('nothing to save: empty-payload', async () => {
    await expect(createSaveUrl(credentials, { objects: [] })).rejects.toMatchObject({ code: 'empty-payload' });
  });
});
