import { concatBytes } from '../concat-bytes.js';
import { derToRawSignature } from './ecdsa.js';
import { fetchGoogleRootKeys } from './root-keys.js';
import type { GoogleCallbackMessage, GoogleCallbackReason, GoogleCallbackResult, GoogleRootKey, VerifyGoogleCallbackOptions } from './types.js';

const PROTOCOL = 'ECv2SigningOnly';
const SENDER = 'GooglePayPasses';
const encoder = new TextEncoder();
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const VERIFY = { name: 'ECDSA', hash: 'SHA-256' } as const;
const MAX_KEYS = 8;
/** Largest callback read, in UTF-16 code units: Google's are about 1 KB; anything near this is not one. */
const MAX_CALLBACK_LENGTH = 64 * 1024;

/** Fetched root keys, kept an hour, for calls that give none (per fetch function). */
const fetched = new WeakMap<object, { keys: readonly GoogleRootKey[]; until: number }>();
const GLOBAL_FETCH = {};

/**
 * Verifies one of Google's save / delete callbacks (protocol
 * `ECv2SigningOnly`): a root key signs the intermediate key, which must not
 * have expired; the intermediate key signs the message for this issuer id;
 * the message must not have expired. Never throws: a refused callback comes
 * back as `{ ok: false, reason }`, one reason per way of failing.
 *
 * Signatures are checked over the texts exactly as received (`signedKey` and
 * `signedMessage` are never re-serialized). Without `rootKeys`, Google's keys
 * are fetched once and kept an hour; pass them yourself to control that.
 * A `nonce` seen before means a repeat: Google retries, drop it. A body
 * over 64 KiB (Google's are about 1 KB) is `malformed` before any parsing,
 * and nothing in a body costs more than eight signature checks per root key.
 *
 * @example
 * ```ts
 * const result = await verifyGoogleCallback(await request.text(), { issuerId: '3388000000012345678', rootKeys });
 * if (!result.ok) return new Response(null, { status: 400 });
 * if (result.message.eventType === 'save') console.log('saved', result.message.objectId);
 * ```
 */
export async function verifyGoogleCallback(body: string | object, options: VerifyGoogleCallbackOptions): Promise<GoogleCallbackResult> {
  try {
    return await verify(body, options);
  } catch {
    return refuse('malformed');
  }
}

function refuse(reason: GoogleCallbackReason): GoogleCallbackResult {
  return { ok: false, reason };
}

async function verify(body: string | object, options: VerifyGoogleCallbackOptions): Promise<GoogleCallbackResult> {
  const now = options.now ?? Date.now();
  if (typeof body === 'string' && body.length > MAX_CALLBACK_LENGTH) return refuse('malformed');
  const envelope = parseObject(body);
  const intermediate = envelope?.['intermediateSigningKey'] as Record<string, unknown> | undefined;
  if (envelope === undefined || typeof envelope['protocolVersion'] !== 'string') return refuse('malformed');
  if (envelope['protocolVersion'] !== PROTOCOL) return refuse('wrong-protocol');
  const { signature, signedMessage } = envelope;
  const signedKey = intermediate?.['signedKey'];
  const signatures = intermediate?.['signatures'];
  if (typeof signature !== 'string' || typeof signedMessage !== 'string' || typeof signedKey !== 'string' || !Array.isArray(signatures))
    return refuse('malformed');
  // A body given already parsed is bounded here: the texts signed, and the signatures tried.
  if (signature.length + signedMessage.length + signedKey.length > MAX_CALLBACK_LENGTH) return refuse('malformed');

  let rootKeys = options.rootKeys;
  if (rootKeys === undefined) {
    try {
      rootKeys = await cachedRootKeys(options.fetch, now);
    } catch {
      return refuse('root-keys-unavailable');
    }
  }
  // Bounded work whatever the body holds: Google sends one or two signatures and publishes a few keys.
  const usable = rootKeys
    .filter((key) => key.protocolVersion === PROTOCOL && key.keyExpiration !== undefined && Number(key.keyExpiration) > now)
    .slice(0, MAX_KEYS);
  if (usable.length === 0) return refuse('no-root-key');

  const keySigned = signedBytes(SENDER, PROTOCOL, signedKey);
  let keyVerified = false;
  for (const root of usable) {
    const publicKey = await importKey(root.keyValue);
    if (publicKey === undefined) continue;
    for (const candidate of signatures.slice(0, MAX_KEYS)) {
      if (typeof candidate === 'string' && (await checks(publicKey, candidate, keySigned))) keyVerified = true;
    }
    if (keyVerified) break;
  }
  if (!keyVerified) return refuse('intermediate-signature-invalid');

  const key = parseObject(signedKey);
  if (key === undefined || typeof key['keyValue'] !== 'string' || !/^\d{1,16}$/.test(String(key['keyExpiration']))) return refuse('malformed');
  if (Number(key['keyExpiration']) <= now) return refuse('intermediate-expired');
  const intermediateKey = await importKey(key['keyValue']);
  if (intermediateKey === undefined) return refuse('malformed');
  if (!(await checks(intermediateKey, signature, signedBytes(SENDER, options.issuerId, PROTOCOL, signedMessage)))) return refuse('signature-invalid');

  const message = readMessage(signedMessage);
  if (message === undefined) return refuse('message-malformed');
  if (message.expTimeMillis <= now) return refuse('message-expired');
  return { ok: true, message };
}

/** `len ‖ text` for each text, lengths as 4-byte little-endian, texts in UTF-8. */
export function signedBytes(...texts: readonly string[]): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  for (const text of texts) {
    const bytes = encoder.encode(text);
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, bytes.length, true);
    parts.push(length, bytes);
  }
  return concatBytes(parts) as Uint8Array<ArrayBuffer>;
}

function parseObject(value: string | object): Record<string, unknown> | undefined {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return undefined;
  }
}

async function importKey(keyValue: string): Promise<CryptoKey | undefined> {
  const spki = base64Bytes(keyValue);
  if (spki === undefined) return undefined;
  try {
    return await crypto.subtle.importKey('spki', spki, EC, false, ['verify']);
  } catch {
    return undefined;
  }
}

async function checks(key: CryptoKey, signature: string, data: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const der = base64Bytes(signature);
  const raw = der === undefined ? undefined : derToRawSignature(der, 32);
  if (raw === undefined) return false;
  return crypto.subtle.verify(VERIFY, key, raw, data);
}

function readMessage(text: string): GoogleCallbackMessage | undefined {
  const message = parseObject(text);
  if (message === undefined) return undefined;
  const { classId, objectId, eventType, nonce, expTimeMillis, count } = message;
  const expires = typeof expTimeMillis === 'string' && /^\d{1,16}$/.test(expTimeMillis) ? Number(expTimeMillis) : expTimeMillis;
  if (typeof classId !== 'string' || typeof objectId !== 'string' || typeof nonce !== 'string') return undefined;
  if (eventType !== 'save' && eventType !== 'del') return undefined;
  if (typeof expires !== 'number' || !Number.isFinite(expires)) return undefined;
  return { classId, objectId, eventType, nonce, expTimeMillis: expires, ...(typeof count === 'number' ? { count } : {}) };
}

async function cachedRootKeys(fetchFunction: typeof fetch | undefined, now: number): Promise<readonly GoogleRootKey[]> {
  const slot = fetchFunction ?? GLOBAL_FETCH;
  const cached = fetched.get(slot);
  if (cached !== undefined && now < cached.until) return cached.keys;
  const keys = await fetchGoogleRootKeys(fetchFunction === undefined ? {} : { fetch: fetchFunction });
  fetched.set(slot, { keys, until: now + 3600_000 });
  return keys;
}
