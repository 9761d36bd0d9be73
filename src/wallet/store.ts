/**
 * One pass registered on one device for updates: what Wallet sends to the
 * register call.
 *
 * @example
 * ```ts
 * const registration: WalletRegistration = {
 *   deviceLibraryIdentifier: '6b7c2f1d0a9e4c3b8d7e6f5a4b3c2d1e',
 *   passTypeIdentifier: 'pass.com.example.member',
 *   serialNumber: 'E5982H-I2',
 *   pushToken: '4a5f0e1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7',
 * };
 * ```
 */
export interface WalletRegistration {
  readonly deviceLibraryIdentifier: string;
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
  /** The APNs device token Wallet gave, lower-case hex. */
  readonly pushToken: string;
}

/**
 * The answer to "which passes changed since this tag": Apple's
 * `{ lastUpdated, serialNumbers }`.
 *
 * @example
 * ```ts
 * const updated: UpdatedSerials = { lastUpdated: '1764000000000001', serialNumbers: ['E5982H-I2'] };
 * ```
 */
export interface UpdatedSerials {
  /** The tag the device sends next time; greater than the one it sent. Opaque to the device. */
  readonly lastUpdated: string;
  /** The serials that changed; empty when none did (the handler then answers 204). */
  readonly serialNumbers: readonly string[];
}

/**
 * Where Wallet registrations and update tags live: a port, so the same handler
 * runs over memory ({@link createMemoryWalletStore}), SQL or anything else.
 * Every implementation runs the contract suite in `test/wallet/store-contract.ts`.
 *
 * Update tags are the store's own: opaque strings that only move forward.
 * The contract every implementation keeps:
 * - `markUpdated` gives the pass a tag greater than every tag given before it;
 * - `updatedSince(device, type, tag)` returns exactly the device's passes of
 *   that type whose tag is greater than `tag` (all of them for `undefined` or
 *   a tag the store did not make), with `lastUpdated` = the greatest tag among
 *   them — so polling with each answer's `lastUpdated` sees every change
 *   exactly once, and no tag goes backwards;
 * - under concurrency, a tag must not become visible before every smaller
 *   tag is (in SQL: take tags in commit order, e.g. under a lock or from a
 *   single-row counter updated in the same transaction).
 *
 * @example
 * ```ts
 * const store: WalletStore = createMemoryWalletStore();
 * await store.register({ deviceLibraryIdentifier, passTypeIdentifier, serialNumber, pushToken }); // 'created'
 * await store.markUpdated(passTypeIdentifier, serialNumber);
 * ```
 */
export interface WalletStore {
  /**
   * Registers a pass on a device: `'created'` when the device had no
   * registration for it, `'existing'` when it had (the push token is then
   * replaced by the new one).
   */
  register(registration: WalletRegistration): Promise<'created' | 'existing'>;
  /** Removes one registration; `true` when there was one. */
  unregister(deviceLibraryIdentifier: string, passTypeIdentifier: string, serialNumber: string): Promise<boolean>;
  /** The device's passes of one type that changed after `since` (see the contract above). */
  updatedSince(deviceLibraryIdentifier: string, passTypeIdentifier: string, since: string | undefined): Promise<UpdatedSerials>;
  /** Moves the pass's tag forward, registered or not; returns the new tag. */
  markUpdated(passTypeIdentifier: string, serialNumber: string): Promise<string>;
  /** Every registration of one pass (one per device). */
  registrationsOf(passTypeIdentifier: string, serialNumber: string): Promise<readonly WalletRegistration[]>;
  /** Removes every registration that uses a push token APNs called gone; returns them. */
  removePushToken(pushToken: string): Promise<readonly WalletRegistration[]>;
}
