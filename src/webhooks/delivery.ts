import { checkEvent } from './event-check.js';
import type { WebhookEvent } from './event-types.js';
import { signPayload } from './signature.js';
import { WebhookError } from './webhook-error.js';

// A type literal, not an interface: it then fits any `{ [name: string]: string }`
// (fetch's HeadersInit, receiveWebhook's headers) without a cast.
/** The three headers of every delivery. */
export type DeliveryHeaders = {
  readonly 'Content-Type': 'application/json';
  readonly 'X-Service': 'event';
  /** `sha1=<40 lowercase hex>` over `body`. */
  readonly 'X-Service-Signature': string;
};

/** One signed request, ready to POST (and to store in a queue: it is plain JSON). */
export interface Delivery {
  /** The event as JSON text: the exact bytes the signature covers. */
  readonly body: string;
  readonly headers: DeliveryHeaders;
}

/**
 * Serializes and signs an event for one registration: the JSON body and the
 * three headers a delivery carries. Throws `WebhookError` `invalid-event` for
 * something that is not an event object, `invalid-secret` for an empty secret.
 *
 * @example
 * ```ts
 * const delivery = await createDelivery(event, registration.secret);
 * // { body: '{"id":"…","type":"pass.created",…}', headers: { 'Content-Type': 'application/json', 'X-Service': 'event', 'X-Service-Signature': 'sha1=…' } }
 * ```
 */
export async function createDelivery(event: WebhookEvent, secret: string): Promise<Delivery> {
  const problem = checkEvent(event);
  if (problem !== undefined) throw new WebhookError('invalid-event', `${problem.message} (at ${problem.path || '/'})`);
  return signedDelivery(JSON.stringify(event), secret);
}

/** Signs an already serialized event (fan-out serializes once for every registration). */
export async function signedDelivery(body: string, secret: string): Promise<Delivery> {
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Service': 'event',
      'X-Service-Signature': await signPayload(body, secret),
    },
  };
}
