// The sealing of secrets at rest: AES-256-GCM under a data key per secret, the data key wrapped by the secret
// key; a rewrap changes only the wrapping; another key, another purpose or a changed byte does not open.
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createSecretBox, readSecretKey, SecretKeyError } from '../../src/server/db/secret-box.js';

describe('the secret box', () => {
  const box = createSecretBox(randomBytes(32));
  const other = createSecretBox(randomBytes(32));

  test('seals each value under its own data key, and opens it for its purpose only', () => {
    const sealed = box.seal('whsec-example-1234', 'webhook-secret');
    expect(sealed).toMatch(new RegExp(`^pm1:${box.keyId}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain('whsec');
    expect(box.seal('whsec-example-1234', 'webhook-secret')).not.toBe(sealed);
    expect(box.open(sealed, 'webhook-secret')).toBe('whsec-example-1234');
    expect(() => box.open(sealed, 'private-key')).toThrow(SecretKeyError);
    expect(() => other.open(sealed, 'webhook-secret')).toThrow(/sealed under key .+, not under the key given/);
    const parts = sealed.split(':');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[data.length - 1]! ^= 1;
    expect(() => box.open([...parts.slice(0, 3), data.toString('base64url')].join(':'), 'webhook-secret')).toThrow(SecretKeyError);
  });

  test('a rewrap keeps the ciphertext and changes the wrapped data key: only the new key opens it', () => {
    const sealed = box.seal('-----BEGIN PRIVATE KEY-----', 'private-key');
    const moved = box.rewrap(sealed, other);
    expect(moved.split(':')[3]).toBe(sealed.split(':')[3]);
    expect(moved.split(':')[1]).toBe(other.keyId);
    expect(other.open(moved, 'private-key')).toBe('-----BEGIN PRIVATE KEY-----');
    expect(() => box.open(moved, 'private-key')).toThrow(SecretKeyError);
  });

  test('a key is 32 bytes of base64', () => {
    const text = randomBytes(32).toString('base64');
    expect(readSecretKey(`${text}\n`)).toHaveLength(32);
    expect(() => readSecretKey(randomBytes(16).toString('base64'))).toThrow(/32 random bytes in base64/);
    expect(() => readSecretKey('not base64 at all!')).toThrow(RangeError);
  });
});
