import { createPrivateKey, KeyObject, sign } from 'node:crypto';
import { ApnsError } from './apns-error.js';

/**
 * What token authentication needs: the `.p8` signing key from Apple's
 * developer account (PKCS #8 PEM, EC P-256), its 10-character Key ID and the
 * Team ID that owns it.
 *
 * @example
 * ```ts
 * const token: ProviderTokenOptions = { key: readFileSync('AuthKey_ABC123DEFG.p8'), keyId: 'ABC123DEFG', teamId: 'A93A5CM278' };
 * ```
 */
export interface ProviderTokenOptions {
  readonly key: string | Uint8Array | KeyObject;
  readonly keyId: string;
  readonly teamId: string;
}

/**
 * Apple rejects a provider token older than an hour, and refuses new ones
 * more often than every 20 minutes (`TooManyProviderTokenUpdates`): one token
 * serves 50 minutes of requests, then the next is made.
 */
export const PROVIDER_TOKEN_LIFETIME_MS: number = 50 * 60 * 1000;

/** A provider token made once and reused until it is due. */
export interface ProviderTokens {
  /** The current token (`eyJ…`), made afresh when it is 50 minutes old or `renew` is set. */
  current(renew?: boolean): string;
}

const identifier = /^[A-Z0-9]{10}$/;

/**
 * Makes ES256 provider tokens (JWT: header `{alg: 'ES256', kid}`, claims
 * `{iss: teamId, iat}`), signed with node:crypto, and keeps each for 50 minutes.
 *
 * @throws {ApnsError} `invalid-key` when the key is not an EC P-256 private key,
 *   `invalid-options` when `keyId` or `teamId` is not 10 upper-case letters or digits.
 *
 * @example
 * ```ts
 * const tokens = createProviderTokens({ key, keyId: 'ABC123DEFG', teamId: 'A93A5CM278' });
 * headers.authorization = `bearer ${tokens.current()}`;
 * ```
 */
export function createProviderTokens(options: ProviderTokenOptions, now: () => number = Date.now): ProviderTokens {
  const { keyId, teamId } = options;
  if (typeof keyId !== 'string' || !identifier.test(keyId)) {
    throw new ApnsError('invalid-options', 'token.keyId must be the 10-character Key ID of the .p8 key');
  }
  if (typeof teamId !== 'string' || !identifier.test(teamId)) {
    throw new ApnsError('invalid-options', 'token.teamId must be the 10-character Team ID');
  }
  let key: KeyObject;
  try {
    key = options.key instanceof KeyObject ? options.key : createPrivateKey(toKeyInput(options.key));
  } catch {
    throw new ApnsError('invalid-key', 'token.key is not a readable private key (the .p8 file from Apple, PEM)');
  }
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ApnsError('invalid-key', 'token.key must be an EC P-256 private key (ES256), as Apple issues them');
  }
  const header = base64url(JSON.stringify({ alg: 'ES256', kid: keyId }));
  let token = '';
  let issuedAt = Number.NEGATIVE_INFINITY;
  return {
    current(renew = false) {
      const time = now();
      if (renew || time - issuedAt >= PROVIDER_TOKEN_LIFETIME_MS || time < issuedAt) {
        issuedAt = time;
        const claims = base64url(JSON.stringify({ iss: teamId, iat: Math.floor(time / 1000) }));
        const input = `${header}.${claims}`;
        // JWS wants the raw r‖s pair, not DER.
        const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
        token = `${input}.${signature.toString('base64url')}`;
      }
      return token;
    },
  };
}

function toKeyInput(key: string | Uint8Array): string | Buffer {
  return typeof key === 'string' ? key : Buffer.from(key);
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
