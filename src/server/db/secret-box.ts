import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Marks a value sealed by a {@link SecretBox}; anything else in a secret's column is a value stored before encryption. */
const PREFIX = 'pm1';

/**
 * Encrypts secrets at rest: AES-256-GCM under a data key made for each
 * secret, the data key wrapped (AES-256-GCM too) by the key-encryption key
 * (`PASSMINT_SECRET_KEY`). A sealed value is one line of text,
 * `pm1:<key id>:<wrapped data key>:<ciphertext>` (base64url), so it fits any
 * text column; its purpose is bound in as additional data, so a value moved
 * to another column does not open. Rotation re-wraps the data key only.
 *
 * @example
 * ```ts
 * const box = createSecretBox(randomBytes(32));
 * const sealed = box.seal('whsec_…', 'webhook-secret');
 * box.open(sealed, 'webhook-secret'); // 'whsec_…'
 * ```
 */
export interface SecretBox {
  /** A short name of the key (a hash of it, never the key): told in messages and written beside each secret. */
  readonly keyId: string;
  seal(plain: string, purpose: string): string;
  /** The plain text; throws {@link SecretKeyError} when the value was sealed under another key or was changed. */
  open(sealed: string, purpose: string): string;
  /** The same secret, its data key wrapped by `next` (the data itself is not re-encrypted). */
  rewrap(sealed: string, next: SecretBox): string;
}

/**
 * A sealed secret that does not open: another key sealed it, or it was changed.
 *
 * @example
 * ```ts
 * try { box.open(value, 'private-key'); } catch (error) { if (error instanceof SecretKeyError) console.error(error.message); }
 * ```
 */
export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

/** Whether a stored value is sealed (rather than a value kept from before encryption). */
export function isSealed(value: string): boolean {
  return value.startsWith(`${PREFIX}:`);
}

/** The key id written into a value sealed by a box, or `undefined` for a clear one. */
export function sealedKeyId(value: string): string | undefined {
  return isSealed(value) ? value.split(':')[1] : undefined;
}

/**
 * Reads a key-encryption key: 32 bytes, given as bytes or base64 (what
 * `openssl rand -base64 32` prints). Throws a `RangeError` saying what is wrong.
 *
 * @example
 * ```ts
 * const key = readSecretKey(process.env.PASSMINT_SECRET_KEY ?? '');
 * ```
 */
export function readSecretKey(text: string | Uint8Array): Uint8Array {
  const bytes = typeof text === 'string' ? Buffer.from(text.trim(), 'base64') : text;
  if (bytes.byteLength !== 32 || (typeof text === 'string' && !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text.trim()))) {
    throw new RangeError('The secret key is 32 random bytes in base64 (make one with `openssl rand -base64 32`)');
  }
  return new Uint8Array(bytes);
}

/**
 * A box under one key-encryption key (32 bytes).
 *
 * @example
 * ```ts
 * const box = createSecretBox(readSecretKey(process.env.PASSMINT_SECRET_KEY!));
 * ```
 */
export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.byteLength !== 32) throw new RangeError('The secret key is 32 bytes');
  const kek = Buffer.from(key);
  const keyId = createHash('sha256').update('passmint secret key id').update(kek).digest('base64url').slice(0, 12);
  const unwrap = (parts: readonly string[]): Buffer => {
    if (parts.length !== 4 || parts[0] !== PREFIX) throw new SecretKeyError('A stored secret is not in the form passmint writes.');
    if (parts[1] !== keyId) throw new SecretKeyError(`A stored secret was sealed under key ${parts[1]}, not under the key given (${keyId}).`);
    return decrypt(kek, Buffer.from(parts[2]!, 'base64url'), `passmint data key ${keyId}`);
  };
  const box: SecretBox = {
    keyId,
    seal(plain, purpose) {
      const dataKey = randomBytes(32);
      const wrapped = encrypt(kek, dataKey, `passmint data key ${keyId}`);
      const data = encrypt(dataKey, Buffer.from(plain, 'utf8'), purpose);
      return [PREFIX, keyId, wrapped.toString('base64url'), data.toString('base64url')].join(':');
    },
    open(sealed, purpose) {
      const parts = sealed.split(':');
      return decrypt(unwrap(parts), Buffer.from(parts[3]!, 'base64url'), purpose).toString('utf8');
    },
    rewrap(sealed, next) {
      const parts = sealed.split(':');
      if (parts[1] === next.keyId) return sealed;
      const dataKey = unwrap(parts);
      const wrap = wrappers.get(next);
      if (wrap === undefined) throw new TypeError('rewrap(): the next box was not made by createSecretBox');
      return [PREFIX, next.keyId, wrap(dataKey).toString('base64url'), parts[3]].join(':');
    },
  };
  wrappers.set(box, (dataKey) => encrypt(kek, dataKey, `passmint data key ${keyId}`));
  return box;
}

/** Each box's data-key wrapping, for another box's rewrap (the key itself never leaves its box). */
const wrappers = new WeakMap<SecretBox, (dataKey: Buffer) => Buffer>();

/** iv (12) | tag (16) | ciphertext, AES-256-GCM with `aad`. */
function encrypt(key: Buffer, plain: Buffer, aad: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function decrypt(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed.byteLength < 28) throw new SecretKeyError('A stored secret is cut short.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
  } catch {
    throw new SecretKeyError('A stored secret does not open under the key given (another key sealed it, or it was changed).');
  }
}
