import { toBase64url } from '../base64url.js';
import { GoogleWalletError } from './error.js';
import { pkcs8Of } from './credentials.js';
import type { GoogleCredentials } from './types.js';

const encoder = new TextEncoder();
const keys = new WeakMap<GoogleCredentials, Promise<CryptoKey>>();

/** The credentials' key imported for RS256, once per credentials object. */
function signingKey(credentials: GoogleCredentials): Promise<CryptoKey> {
  let key = keys.get(credentials);
  if (key === undefined) {
    key = crypto.subtle.importKey('pkcs8', pkcs8Of(credentials.privateKeyPem), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']).catch(() => {
      keys.delete(credentials);
      throw new GoogleWalletError('bad-private-key', 'The private_key could not be imported as an RSA key.');
    });
    keys.set(credentials, key);
  }
  return key;
}

/**
 * A JWT signed RS256 with the service account's key (`kid` = its key id).
 *
 * @example
 * ```ts
 * const jwt = await signJwt(credentials, { iss: credentials.clientEmail, aud: 'google' });
 * ```
 */
export async function signJwt(credentials: GoogleCredentials, claims: Record<string, unknown>): Promise<string> {
  const header = { alg: 'RS256', typ: 'JWT', ...(credentials.privateKeyId === undefined ? {} : { kid: credentials.privateKeyId }) };
  const input = `${toBase64url(encoder.encode(JSON.stringify(header)))}.${toBase64url(encoder.encode(JSON.stringify(claims)))}`;
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', await signingKey(credentials), encoder.encode(input));
  return `${input}.${toBase64url(new Uint8Array(signature))}`;
}
