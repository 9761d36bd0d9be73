import { checkFunction, checkInteger } from './check-option.js';
import { signedDelivery } from './delivery.js';
import { checkEvent } from './event-check.js';
import type { WebhookEvent } from './event-types.js';
import { deliver } from './deliver.js';
import type { DeliverOptions, DeliveryResult } from './deliver.js';
import { checkAttemptOptions, checkUrl } from './post.js';
import type { RegistrationState } from './registration.js';
import { checkSecret } from './signature.js';
import { WebhookError } from './webhook-error.js';

/** What fan-out needs to know about a registration; yours may carry more (an id …), it is handed back. */
export interface DispatchTarget {
  readonly url: string | URL;
  readonly secret: string;
  readonly state: RegistrationState;
}

/** The result of one registration's attempt. */
export interface DispatchResult<TTarget extends DispatchTarget> {
  readonly registration: TTarget;
  readonly result: DeliveryResult;
}

/** Options of `dispatchEvent`: those of `deliver`, plus how many requests run at once. */
export interface DispatchOptions extends DeliverOptions {
  /** Most requests in flight at once: an integer ≥ 1, default 64. */
  readonly concurrency?: number;
}

/**
 * Sends one event to every `enabled` registration — any number of them —
 * concurrently (up to `concurrency` at a time), each signed with its own
 * secret: one attempt each. Returns one result per enabled registration, in
 * the order given; `pending` and `disabled` ones are skipped and not listed.
 * Each registration keeps its own retry state: re-queue the ones whose
 * outcome is `retry` with `nextRetryDelay`.
 *
 * URLs, secrets and options are checked before anything is sent
 * (`invalid-url`, `private-address`, `invalid-secret`, `invalid-argument`), so
 * a bad registration cannot half-send an event. In Node, a registration whose
 * host name resolves to a refused address gets `reason: 'private-address'`
 * in its own result; the others are delivered.
 *
 * @example
 * ```ts
 * const results = await dispatchEvent(event, await db.registrations());
 * for (const { registration, result } of results) {
 *   if (result.outcome === 'retry') await queue.retry(registration.id, event, 1, result.retryAfterMs);
 *   if (result.outcome === 'gone') await db.disable(registration.id);
 * }
 * ```
 */
export async function dispatchEvent<TTarget extends DispatchTarget>(
  event: WebhookEvent,
  registrations: Iterable<TTarget>,
  options: DispatchOptions = {},
): Promise<DispatchResult<TTarget>[]> {
  const concurrency = checkInteger('concurrency', options.concurrency === undefined ? 64 : options.concurrency, 1);
  const { allowPrivateNetworks } = checkAttemptOptions(options);
  checkFunction('now', options.now);
  const problem = checkEvent(event);
  if (problem !== undefined) throw new WebhookError('invalid-event', `${problem.message} (at ${problem.path || '/'})`);
  const targets = [...registrations].filter((registration) => registration.state === 'enabled');
  for (const target of targets) {
    checkUrl(target.url, allowPrivateNetworks);
    checkSecret(target.secret);
  }

  const body = JSON.stringify(event);
  const results: DispatchResult<TTarget>[] = new Array<DispatchResult<TTarget>>(targets.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length) {
      const index = next++;
      const registration = targets[index] as TTarget;
      const delivery = await signedDelivery(body, registration.secret);
      results[index] = { registration, result: await deliver(registration.url, delivery, options) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  return results;
}
