import type { UpdatedSerials, WalletRegistration, WalletStore } from './store.js';

/** Options of {@link createMemoryWalletStore}. */
export interface MemoryWalletStoreOptions {
  /** The clock tags start from, in milliseconds; default `Date.now`. */
  readonly now?: () => number;
}

// Largest tag kept exact in a double: tags are decimal integers below 2^53.
const tagPattern = /^(?:0|[1-9]\d{0,15})$/;

/**
 * A {@link WalletStore} in memory: for tests, a single process, or a start.
 * Everything is lost on restart, except that tags keep moving forward: a tag
 * is the clock in microseconds (or one more than the last tag, whichever is
 * greater), so a device's old tag is still older than any new change.
 *
 * Every method does its work synchronously before its promise settles, so
 * calls never interleave halfway: the contract holds under any concurrency.
 *
 * @example
 * ```ts
 * const handler = createWalletHandler({ store: createMemoryWalletStore(), findPass });
 * ```
 */
export function createMemoryWalletStore(options: MemoryWalletStoreOptions = {}): WalletStore {
  const now = options.now ?? Date.now;
  // device → pass key → registration
  const byDevice = new Map<string, Map<string, WalletRegistration>>();
  // pass key → device → registration
  const byPass = new Map<string, Map<string, WalletRegistration>>();
  // pass key → tag; a pass never marked updated has tag 0 (the device got its latest version when it added it).
  const tags = new Map<string, number>();
  let lastTag = 0;

  const key = (passTypeIdentifier: string, serialNumber: string): string => JSON.stringify([passTypeIdentifier, serialNumber]);

  const remove = (registration: WalletRegistration): void => {
    const passKey = key(registration.passTypeIdentifier, registration.serialNumber);
    byDevice.get(registration.deviceLibraryIdentifier)?.delete(passKey);
    if (byDevice.get(registration.deviceLibraryIdentifier)?.size === 0) byDevice.delete(registration.deviceLibraryIdentifier);
    byPass.get(passKey)?.delete(registration.deviceLibraryIdentifier);
    if (byPass.get(passKey)?.size === 0) byPass.delete(passKey);
  };

  return {
    async register(registration) {
      const copy: WalletRegistration = {
        deviceLibraryIdentifier: registration.deviceLibraryIdentifier,
        passTypeIdentifier: registration.passTypeIdentifier,
        serialNumber: registration.serialNumber,
        pushToken: registration.pushToken,
      };
      const passKey = key(copy.passTypeIdentifier, copy.serialNumber);
      let passes = byDevice.get(copy.deviceLibraryIdentifier);
      if (passes === undefined) byDevice.set(copy.deviceLibraryIdentifier, (passes = new Map()));
      const existed = passes.has(passKey);
      passes.set(passKey, copy);
      let devices = byPass.get(passKey);
      if (devices === undefined) byPass.set(passKey, (devices = new Map()));
      devices.set(copy.deviceLibraryIdentifier, copy);
      return existed ? 'existing' : 'created';
    },

    async unregister(deviceLibraryIdentifier, passTypeIdentifier, serialNumber) {
      const registration = byDevice.get(deviceLibraryIdentifier)?.get(key(passTypeIdentifier, serialNumber));
      if (registration === undefined) return false;
      remove(registration);
      return true;
    },

    async updatedSince(deviceLibraryIdentifier, passTypeIdentifier, since): Promise<UpdatedSerials> {
      // A tag this store did not make (garbage, or from before a reset) counts as none: all passes.
      const after = since !== undefined && tagPattern.test(since) ? Number(since) : -1;
      const serialNumbers: string[] = [];
      let greatest = -1;
      for (const [passKey, registration] of byDevice.get(deviceLibraryIdentifier) ?? []) {
        if (registration.passTypeIdentifier !== passTypeIdentifier) continue;
        const tag = tags.get(passKey) ?? 0;
        if (tag <= after) continue;
        serialNumbers.push(registration.serialNumber);
        if (tag > greatest) greatest = tag;
      }
      return { lastUpdated: serialNumbers.length === 0 ? (since ?? '0') : String(greatest), serialNumbers };
    },

    async markUpdated(passTypeIdentifier, serialNumber) {
      lastTag = Math.max(lastTag + 1, Math.floor(now() * 1000));
      tags.set(key(passTypeIdentifier, serialNumber), lastTag);
      return String(lastTag);
    },

    async registrationsOf(passTypeIdentifier, serialNumber) {
      return [...(byPass.get(key(passTypeIdentifier, serialNumber))?.values() ?? [])];
    },

    async removePushToken(pushToken) {
      const removed: WalletRegistration[] = [];
      for (const passes of byDevice.values()) {
        for (const registration of passes.values()) if (registration.pushToken === pushToken) removed.push(registration);
      }
      for (const registration of removed) remove(registration);
      return removed;
    },
  };
}
