import { createEvent } from '../webhooks/event.js';
import type { WebhookEventOf } from '../webhooks/event-types.js';
import type { WalletRegistration, WalletStore } from '../wallet/store.js';
import type { PushOptions } from './client.js';
import type { PushResult } from './classify.js';

/**
 * What `notifyPassUpdated` needs: the registrations, something that pushes
 * (an {@link ApnsClient}), and where `registration.deleted` goes when APNs
 * says a device is gone.
 *
 * @example
 * ```ts
 * const options: NotifyOptions = { store, apns, onEvent: (event) => outbox.add(event) };
 * ```
 */
export interface NotifyOptions {
  readonly store: WalletStore;
  readonly apns: { push(pushToken: string, topic: string, options?: PushOptions): Promise<PushResult> };
  /** Told `registration.deleted` for every registration removed because its device token is gone. */
  readonly onEvent?: ((event: WebhookEventOf<'registration.deleted'>) => void | PromiseLike<void>) | undefined;
  /** Passed to every push. */
  readonly push?: PushOptions | undefined;
}

/**
 * What one `notifyPassUpdated` did.
 *
 * @example
 * ```ts
 * const { lastUpdated, pushes, removed }: NotifyResult = await notifyPassUpdated(options, type, serial);
 * const later = pushes.filter(({ result }) => result.outcome === 'retry');
 * ```
 */
export interface NotifyResult {
  /** The pass's new update tag. */
  readonly lastUpdated: string;
  /** One push per distinct device token registered for the pass, with the registrations it served. */
  readonly pushes: readonly { readonly pushToken: string; readonly result: PushResult }[];
  /** Registrations removed because APNs said their device token is gone. */
  readonly removed: readonly WalletRegistration[];
}

/**
 * Tells every device that holds a pass that it changed: moves the pass's
 * update tag forward (so the devices' next poll returns it), pushes `{}` to
 * each registered device token (once per token), and removes the
 * registrations whose token APNs calls gone (410, `BadDeviceToken` …),
 * reporting each as `registration.deleted`. Pushes with the outcome `retry`
 * are the caller's to queue again; nothing else is retried here.
 *
 * Call it after the pass's new version is stored: a device may ask for it as
 * soon as the push arrives.
 *
 * @example
 * ```ts
 * await db.updatePass(passTypeIdentifier, serialNumber, values);
 * const { pushes } = await notifyPassUpdated({ store, apns }, passTypeIdentifier, serialNumber);
 * ```
 */
export async function notifyPassUpdated(options: NotifyOptions, passTypeIdentifier: string, serialNumber: string): Promise<NotifyResult> {
  const { store, apns, onEvent } = options;
  const lastUpdated = await store.markUpdated(passTypeIdentifier, serialNumber);
  const registrations = await store.registrationsOf(passTypeIdentifier, serialNumber);
  const tokens = [...new Set(registrations.map((registration) => registration.pushToken))];
  const pushes = await Promise.all(tokens.map(async (pushToken) => ({ pushToken, result: await apns.push(pushToken, passTypeIdentifier, options.push) })));
  const removed: WalletRegistration[] = [];
  for (const { pushToken, result } of pushes) {
    if (result.outcome !== 'gone') continue;
    removed.push(...(await store.removePushToken(pushToken)));
  }
  if (onEvent !== undefined) {
    for (const registration of removed) {
      await onEvent(
        createEvent('registration.deleted', {
          serialNumber: registration.serialNumber,
          passTypeIdentifier: registration.passTypeIdentifier,
          deviceLibraryIdentifier: registration.deviceLibraryIdentifier,
          wallet: 'apple',
        }),
      );
    }
  }
  return { lastUpdated, pushes, removed };
}
