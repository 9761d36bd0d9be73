import { readLimited } from '../read-limited.js';
import { signedDelivery } from './delivery.js';
import { createEvent, isEventType } from './event.js';
import type { WebhookEvent, WebhookEventOf } from './event-types.js';
import { discardBody, post } from './post.js';
import type { AttemptOptions } from './post.js';
import { randomToken } from './random-token.js';
import { checkSecret } from './signature.js';

/**
 * The receiver's side of the handshake: for a `webhook.verify` event, the
 * answer the service expects — `200`, the token as a `text/plain` body; for
 * any other event, `undefined` (handle it yourself).
 *
 * @example
 * ```ts
 * const event = await receiveWebhook(request, secret);
 * const answer = respondToVerification(event);
 * if (answer) return answer;
 * ```
 */
export function respondToVerification(event: WebhookEvent): Response | undefined {
  if (!isEventType(event, 'webhook.verify')) return undefined;
  return new Response(event.data.token, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** Why a handshake failed: see `EndpointVerification`. */
export type VerificationFailure = 'wrong-token' | 'unexpected-status' | 'redirect' | 'timeout' | 'network-error' | 'aborted' | 'private-address';

/**
 * The service's view of a handshake. `verified` when the URL answered 2xx with
 * the token (as the body, or as JSON `{"token": …}`, either trimmed).
 * Otherwise `reason` says why: `unexpected-status` (not 2xx), `redirect`
 * (3xx, not followed), `wrong-token` (2xx without the token), `timeout`,
 * `network-error`, `aborted`, `private-address` (in Node: the host name
 * resolved to a private, loopback, link-local or multicast address, and no
 * connection was made). `error` is for the registration's owner: it names no
 * address, port or system error, so it cannot serve to map a network.
 */
export type EndpointVerification =
  | { readonly verified: true; readonly status: number; readonly event: WebhookEventOf<'webhook.verify'> }
  | {
      readonly verified: false;
      readonly reason: VerificationFailure;
      readonly status?: number;
      readonly error: string;
      readonly event: WebhookEventOf<'webhook.verify'>;
    };

/** Options of `verifyEndpoint`: those of one attempt (`fetch`, `timeoutMs`, `signal`, `allowPrivateNetworks`). */
export type VerifyEndpointOptions = AttemptOptions;

// A receiver answers with a token, not a page: anything longer is not the token.
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The service's side of the handshake: sends a signed `webhook.verify` event
 * with a fresh random token to `url` and reports whether it came back. One
 * attempt; never throws for what the receiver or network does (`invalid-url`,
 * `private-address`, `invalid-secret` and `invalid-argument` for misuse).
 * Private, loopback, link-local and multicast destinations are refused unless
 * `allowPrivateNetworks` is set (see `deliver`). Feed the result to
 * `transitionRegistration` to move a `pending` registration to `enabled`.
 *
 * @example
 * ```ts
 * const check = await verifyEndpoint('https://example.com/hooks', secret, { timeoutMs: 10_000 });
 * if (!check.verified) console.warn(`Not verified (${check.reason}): ${check.error}`);
 * ```
 */
export async function verifyEndpoint(url: string | URL, secret: string, options: VerifyEndpointOptions = {}): Promise<EndpointVerification> {
  checkSecret(secret);
  const event = createEvent('webhook.verify', { token: randomToken(32) });
  const delivery = await signedDelivery(JSON.stringify(event), secret);
  const outcome = await post(url, delivery, options, async (response): Promise<Answer> => {
    const { status } = response;
    // An opaque redirect (browsers) has status 0, which is no status at all.
    const known = status === 0 ? {} : { status };
    if (status < 200 || status > 299) {
      discardBody(response);
      return response.type === 'opaqueredirect' || (status >= 300 && status <= 399)
        ? { verified: false, reason: 'redirect', ...known, error: `Redirect (HTTP ${status}) not followed` }
        : { verified: false, reason: 'unexpected-status', status, error: `HTTP ${status}` };
    }
    return answerHasToken(await readText(response), event.data.token)
      ? { verified: true, status }
      : { verified: false, reason: 'wrong-token', status, error: 'The response body did not contain the token' };
  });
  const answer: Answer = outcome.kind === 'response' ? outcome.value : { verified: false, reason: outcome.reason, error: outcome.error };
  return { ...answer, event };
}

type Answer =
  | { readonly verified: true; readonly status: number }
  | { readonly verified: false; readonly reason: VerificationFailure; readonly status?: number; readonly error: string };

function answerHasToken(answer: string | undefined, token: string): boolean {
  if (answer === undefined) return false;
  const text = answer.trim();
  if (text === token) return true;
  try {
    const json: unknown = JSON.parse(text);
    return (
      typeof json === 'object' &&
      json !== null &&
      Object.hasOwn(json, 'token') &&
      typeof (json as { token: unknown }).token === 'string' &&
      (json as { token: string }).token.trim() === token
    );
  } catch {
    return false;
  }
}

async function readText(response: Response): Promise<string | undefined> {
  const bytes = await readLimited(response.body, MAX_ANSWER_BYTES);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}
