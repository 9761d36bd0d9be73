/**
 * Why `passmint/webhooks` refused something.
 *
 * Receiving (`receiveWebhook`): `missing-signature`, `invalid-signature`,
 * `malformed-body`, `body-already-parsed`, `body-too-large`, `invalid-event`,
 * `stale-event`. Misuse by the caller: `invalid-secret`, `invalid-url`
 * (not absolute http(s), or with a user name or password), `private-address`
 * (a URL whose host is a private, loopback, link-local or multicast IP, or
 * `localhost`, without `allowPrivateNetworks`), `invalid-argument` (and
 * `invalid-event` for an event that `createEvent` or `createDelivery` cannot send).
 */
export type WebhookErrorCode =
  | 'missing-signature'
  | 'invalid-signature'
  | 'malformed-body'
  | 'body-already-parsed'
  | 'body-too-large'
  | 'invalid-event'
  | 'stale-event'
  | 'invalid-secret'
  | 'invalid-url'
  | 'private-address'
  | 'invalid-argument';

/**
 * A webhook that was refused, or a webhook function that was called wrongly; `code` says which.
 *
 * @example
 * ```ts
 * try {
 *   const event = await receiveWebhook(request, secret);
 * } catch (error) {
 *   if (error instanceof WebhookError) return new Response(error.code, { status: 400 });
 *   throw error;
 * }
 * ```
 */
export class WebhookError extends Error {
  override name = 'WebhookError';
  readonly code: WebhookErrorCode;

  constructor(code: WebhookErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
