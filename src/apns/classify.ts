/**
 * What to do after one push: `sent` (APNs took it), `retry` (later, with
 * backoff: 429, 5xx, no answer), `gone` (the device token is no longer valid
 * for this pass type: remove its registrations), `rejected` (APNs refused the
 * request itself — certificate, provider token, topic, payload: retrying the
 * same push cannot help until the configuration is fixed).
 */
export type PushOutcome = 'sent' | 'retry' | 'gone' | 'rejected';

/**
 * The result of one push; never thrown.
 *
 * @example
 * ```ts
 * const result: PushResult = await apns.push(pushToken, 'pass.com.example.member');
 * if (result.outcome === 'gone') await store.removePushToken(pushToken);
 * ```
 */
export interface PushResult {
  readonly outcome: PushOutcome;
  /** The HTTP status APNs answered; absent when there was no answer. */
  readonly status?: number;
  /** APNs's `reason` (`BadDeviceToken`, `Unregistered`, `TooManyRequests` …), when it gave one. */
  readonly reason?: string;
  /** The `apns-id` APNs gave the notification. */
  readonly apnsId?: string;
  /** For `retry`: how long APNs asked to wait (a `Retry-After`), when it did. */
  readonly retryAfterMs?: number;
  /** Why there was no answer (a timeout, a reset, a refused connection). */
  readonly error?: string;
}

// Apple: "Don't retry notification responses with the error code BadDeviceToken,
// DeviceTokenNotForTopic, Forbidden, ExpiredToken, Unregistered, or PayloadTooLarge."
// Of those, these say the token itself is of no use for this topic any more.
const goneReasons = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered', 'ExpiredToken']);

/**
 * Classifies an APNs answer by its status and `reason`, as Apple documents
 * them ("Handling notification responses from APNs"):
 *
 * | status | reason | outcome |
 * |---|---|---|
 * | 200 | — | `sent` |
 * | 410 | `Unregistered`, `ExpiredToken` | `gone` |
 * | 400 | `BadDeviceToken`, `DeviceTokenNotForTopic` | `gone` |
 * | 400 | any other (`BadTopic`, `MissingTopic`, `PayloadEmpty` …) | `rejected` |
 * | 403 | any (`BadCertificate`, `InvalidProviderToken`, `ExpiredProviderToken` after a fresh token, `Forbidden` …) | `rejected` |
 * | 404, 405, 413 | — | `rejected` |
 * | 429 | `TooManyRequests`, `TooManyProviderTokenUpdates` | `retry` |
 * | 500, 503 and any other 5xx | — | `retry` |
 *
 * A 400 without a reason, or any other 4xx, is `rejected`; anything else is `retry`.
 *
 * @example
 * ```ts
 * classifyPush(410, 'Unregistered'); // 'gone'
 * classifyPush(503, 'ServiceUnavailable'); // 'retry'
 * ```
 */
export function classifyPush(status: number, reason: string | undefined): PushOutcome {
  if (status === 200) return 'sent';
  if (status === 410) return 'gone';
  if (status === 400 && reason !== undefined && goneReasons.has(reason)) return 'gone';
  if (status === 429 || status >= 500) return 'retry';
  if (status >= 400) return 'rejected';
  return 'retry';
}
