import { readLimited } from '../read-limited.js';
import { timeLimit } from '../time-limit.js';
import { GoogleWalletError } from './error.js';
import { signJwt } from './jwt.js';
import type { GoogleCredentials } from './types.js';

/** The OAuth scope of the Google Wallet API. */
export const WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';

/** A token is renewed this long before Google says it expires. */
const RENEW_BEFORE_MS = 5 * 60_000;

/** What the token source needs. */
export interface TokenSourceOptions {
  readonly credentials: GoogleCredentials;
  readonly tokenUrl: string;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly now: () => number;
}

/** Access tokens for the service account: one at a time, reused until shortly before it expires. */
export interface TokenSource {
  get(): Promise<string>;
  /** Forget the cached token (after a 401). */
  reset(): void;
}

/**
 * OAuth 2.0 for server-to-server applications: an RS256 JWT assertion
 * (`iss`, `scope`, `aud` = the token URL, `iat`, `exp` = `iat` + 1 h) posted
 * as a form; the `access_token` is cached and shared by concurrent calls.
 */
export function createTokenSource(options: TokenSourceOptions): TokenSource {
  let cached: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const fetchToken = async (): Promise<string> => {
    const now = options.now();
    const iat = Math.floor(now / 1000);
    const assertion = await signJwt(options.credentials, {
      iss: options.credentials.clientEmail,
      scope: WALLET_SCOPE,
      aud: options.tokenUrl,
      iat,
      exp: iat + 3600,
    });
    const limit = timeLimit(options.timeoutMs);
    let status = 0;
    let text: string;
    try {
      const response = await Promise.race([
        options.fetch(options.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
          signal: limit.signal,
        }),
        limit.cutShort,
      ]);
      status = response.status;
      const bytes = await Promise.race([readLimited(response.body, options.maxBodyBytes), limit.cutShort]);
      if (bytes === undefined) throw new GoogleWalletError('body-too-large', `The token answer is over ${options.maxBodyBytes} bytes.`, status);
      text = new TextDecoder().decode(bytes);
    } catch (error) {
      if (error instanceof GoogleWalletError) throw error;
      throw new GoogleWalletError(
        limit.timedOut ? 'timeout' : 'token-failed',
        limit.timedOut ? `No token answer within ${options.timeoutMs} ms.` : 'The token endpoint could not be reached.',
      );
    } finally {
      limit.dispose();
    }
    let answer: Record<string, unknown> = {};
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // handled below: no access_token
    }
    const token = answer?.['access_token'];
    if (status !== 200 || typeof token !== 'string') {
      const reason =
        typeof answer?.['error_description'] === 'string'
          ? `: ${String(answer['error_description']).slice(0, 200)}`
          : typeof answer?.['error'] === 'string'
            ? `: ${String(answer['error']).slice(0, 200)}`
            : '';
      throw new GoogleWalletError('token-failed', `Google refused the service account's token request (HTTP ${status})${reason}.`, status);
    }
    const expiresIn = typeof answer['expires_in'] === 'number' ? answer['expires_in'] : 3600;
    cached = { token, renewAt: now + Math.max(0, expiresIn * 1000 - RENEW_BEFORE_MS) };
    return token;
  };
  return {
    get() {
      if (cached !== undefined && options.now() < cached.renewAt) return Promise.resolve(cached.token);
      pending ??= fetchToken().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    reset() {
      cached = undefined;
    },
  };
}
