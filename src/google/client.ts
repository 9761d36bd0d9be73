import { readLimited } from '../read-limited.js';
import { timeLimit } from '../time-limit.js';
import { type GoogleWalletErrorCode, GoogleWalletError } from './error.js';
import { retryAfterMs } from './retry-after.js';
import { createTokenSource } from './token.js';
import type { GoogleWalletClient, GoogleWalletClientOptions, GoogleWalletResource, GoogleWalletResourceBody } from './types.js';

const RESOURCE = /^(generic|eventTicket|loyalty|offer|flight|transit|giftCard)(Class|Object)$/;
/** The longest wait a `Retry-After` may ask for; a longer one fails at once. */
const MAX_RETRY_WAIT_MS = 60_000;

const sleepFor = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * A Google Wallet REST client authenticated with a service account: an OAuth
 * token is fetched, cached and renewed before it expires; 429 and 5xx answers
 * (and network failures) are retried with exponential backoff that honours
 * `Retry-After`, a bounded number of times; every call has a time limit and
 * a bounded answer size. Failures throw `GoogleWalletError` with a `code`
 * (`not-found`, `conflict`, `rate-limited`, `server-error`, `invalid-argument`,
 * `timeout`, …) and the HTTP `status`.
 *
 * @example
 * ```ts
 * const client = createGoogleWalletClient({ credentials });
 * await client.upsert('genericClass', walletClass);
 * await client.upsert('genericObject', object);
 * await client.patch('genericObject', object.id, { state: 'EXPIRED' });
 * ```
 */
export function createGoogleWalletClient(options: GoogleWalletClientOptions): GoogleWalletClient {
  const baseUrl = (options.baseUrl ?? 'https://walletobjects.googleapis.com/walletobjects/v1/').replace(/\/?$/, '/');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const retries = options.retries ?? 3;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepFor;
  const tokens = createTokenSource({
    credentials: options.credentials,
    tokenUrl: options.tokenUrl ?? 'https://oauth2.googleapis.com/token',
    fetch: doFetch,
    timeoutMs,
    maxBodyBytes,
    now,
  });

  const once = async (method: string, url: string, body: unknown): Promise<{ status: number; text: string; retryAfter: string | null }> => {
    const token = await tokens.get();
    const limit = timeLimit(timeoutMs);
    try {
      const response = await Promise.race([
        doFetch(url, {
          method,
          headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: limit.signal,
        }),
        limit.cutShort,
      ]);
      const bytes = await Promise.race([readLimited(response.body, maxBodyBytes), limit.cutShort]);
      if (bytes === undefined)
        throw new GoogleWalletError('body-too-large', `Google's answer to ${method} ${url} is over ${maxBodyBytes} bytes.`, response.status);
      return { status: response.status, text: new TextDecoder().decode(bytes), retryAfter: response.headers.get('retry-after') };
    } catch (error) {
      if (error instanceof GoogleWalletError) throw error;
      if (limit.timedOut) throw new GoogleWalletError('timeout', `No answer to ${method} ${url} within ${timeoutMs} ms.`);
      throw new GoogleWalletError('request-failed', `${method} ${url} could not be sent.`);
    } finally {
      limit.dispose();
    }
  };

  const call = async (method: string, path: string, body?: unknown): Promise<GoogleWalletResourceBody> => {
    const url = baseUrl + path;
    let renewedToken = false;
    for (let attempt = 0; ; attempt++) {
      let answer: { status: number; text: string; retryAfter: string | null };
      try {
        answer = await once(method, url, body);
      } catch (error) {
        if (error instanceof GoogleWalletError && error.code === 'request-failed' && attempt < retries) {
          await sleep(backoff(attempt));
          continue;
        }
        throw error;
      }
      const { status, text, retryAfter } = answer;
      if (status >= 200 && status < 300) return parseBody(text, status);
      if (status === 401 && !renewedToken) {
        renewedToken = true;
        tokens.reset();
        attempt--;
        continue;
      }
      if ((status === 429 || status >= 500) && attempt < retries) {
        const asked = retryAfterMs(retryAfter, now());
        if (asked === undefined || asked <= MAX_RETRY_WAIT_MS) {
          await sleep(asked ?? backoff(attempt));
          continue;
        }
      }
      throw httpError(method, path, status, text);
    }
  };

  const path = (resource: GoogleWalletResource, id?: string, suffix = ''): string => {
    if (!RESOURCE.test(resource))
      throw new GoogleWalletError('invalid-argument', `Unknown resource ${JSON.stringify(String(resource))}; use e.g. 'genericObject' or 'loyaltyClass'.`);
    return id === undefined ? resource : `${resource}/${encodeURIComponent(id)}${suffix}`;
  };
  const idOf = (body: GoogleWalletResourceBody): string => {
    if (typeof body['id'] !== 'string' || body['id'] === '') throw new GoogleWalletError('invalid-argument', 'The resource has no id.');
    return body['id'];
  };

  return {
    insert: async (resource, body) => call('POST', path(resource), body),
    get: async (resource, id) => call('GET', path(resource, id)),
    patch: async (resource, id, body) => call('PATCH', path(resource, id), body),
    update: async (resource, id, body) => call('PUT', path(resource, id), body),
    async upsert(resource, body) {
      const id = idOf(body);
      try {
        return await call('POST', path(resource), body);
      } catch (error) {
        if (error instanceof GoogleWalletError && error.code === 'conflict') return call('PATCH', path(resource, id), body);
        throw error;
      }
    },
    addMessage: async (resource, id, message) => call('POST', path(resource, id, '/addMessage'), { message }),
  };
}

function backoff(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8_000);
}

function parseBody(text: string, status: number): GoogleWalletResourceBody {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as GoogleWalletResourceBody;
  } catch {
    // fall through
  }
  throw new GoogleWalletError('bad-response', 'Google answered with something other than a JSON object.', status);
}

function httpError(method: string, path: string, status: number, text: string): GoogleWalletError {
  const code: GoogleWalletErrorCode =
    status === 404
      ? 'not-found'
      : status === 409
        ? 'conflict'
        : status === 429
          ? 'rate-limited'
          : status >= 500
            ? 'server-error'
            : status === 400
              ? 'invalid-argument'
              : 'request-failed';
  let detail = '';
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') detail = `: ${message.slice(0, 300)}`;
  } catch {
    // no JSON error body
  }
  return new GoogleWalletError(code, `Google Wallet answered ${method} ${path} with HTTP ${status}${detail}.`, status);
}
