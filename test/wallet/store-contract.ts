import { describe, expect, test } from 'vitest';
import type { WalletRegistration, WalletStore } from '../../src/wallet/store.js';

/**
 * The contract every WalletStore keeps (see the port's TSDoc), as a suite any
 * implementation runs: `runWalletStoreContract('SQL store', () => createSqlStore(url), (store) => store.close())`.
 * Tags are treated as opaque throughout: their order is observed only through
 * `updatedSince`, as a device sees them.
 */
export function runWalletStoreContract(
  name: string,
  makeStore: () => WalletStore | Promise<WalletStore>,
  dispose: (store: WalletStore) => void | Promise<void> = () => undefined,
): void {
  const withStore = (run: (store: WalletStore) => Promise<void>) => async () => {
    const store = await makeStore();
    try {
      await run(store);
    } finally {
      await dispose(store);
    }
  };
  const type = 'pass.com.example.member';
  const token = (n: number): string => n.toString(16).padStart(64, 'a');
  const registration = (device: string, serialNumber: string, pushToken = token(1), passTypeIdentifier = type): WalletRegistration => ({
    deviceLibraryIdentifier: device,
    passTypeIdentifier,
    serialNumber,
    pushToken,
  });
  const sorted = (serials: readonly string[]): string[] => [...serials].sort();

  describe(`WalletStore contract: ${name}`, () => {
    test(
      'a first registration is created, the same again is existing, and a new push token replaces the old',
      withStore(async (store) => {
        expect(await store.register(registration('device-1', 'S1', token(1)))).toBe('created');
        expect(await store.register(registration('device-1', 'S1', token(1)))).toBe('existing');
        expect(await store.register(registration('device-1', 'S1', token(2)))).toBe('existing');
        expect(await store.registrationsOf(type, 'S1')).toEqual([registration('device-1', 'S1', token(2))]);
      }),
    );

    test(
      'one pass on two devices has two registrations; unregistering removes one, once',
      withStore(async (store) => {
        await store.register(registration('device-1', 'S1', token(1)));
        await store.register(registration('device-2', 'S1', token(2)));
        const devices = (await store.registrationsOf(type, 'S1')).map((entry) => entry.deviceLibraryIdentifier);
        expect(sorted(devices)).toEqual(['device-1', 'device-2']);
        expect(await store.unregister('device-1', type, 'S1')).toBe(true);
        expect(await store.unregister('device-1', type, 'S1')).toBe(false);
        expect(await store.registrationsOf(type, 'S1')).toEqual([registration('device-2', 'S1', token(2))]);
        expect(await store.registrationsOf(type, 'unknown')).toEqual([]);
      }),
    );

    test(
      'without a tag (or with one the store did not make), a device gets all its passes of that type',
      withStore(async (store) => {
        await store.register(registration('device-1', 'S1'));
        await store.register(registration('device-1', 'S2'));
        await store.register(registration('device-1', 'S3', token(1), 'pass.com.example.other'));
        await store.register(registration('device-2', 'S4'));
        for (const since of [undefined, 'not-a-tag', '-1', '1e3', '99999999999999999999999']) {
          const all = await store.updatedSince('device-1', type, since);
          expect(sorted(all.serialNumbers)).toEqual(['S1', 'S2']);
          expect(typeof all.lastUpdated).toBe('string');
        }
        expect((await store.updatedSince('unknown-device', type, undefined)).serialNumbers).toEqual([]);
      }),
    );

    test(
      "each change is returned exactly once, and each answer's tag is later than the one given",
      withStore(async (store) => {
        await store.register(registration('device-1', 'S1'));
        await store.register(registration('device-1', 'S2'));
        let tag = (await store.updatedSince('device-1', type, undefined)).lastUpdated;
        expect((await store.updatedSince('device-1', type, tag)).serialNumbers).toEqual([]);

        await store.markUpdated(type, 'S1');
        let answer = await store.updatedSince('device-1', type, tag);
        expect(answer.serialNumbers).toEqual(['S1']);
        expect(answer.lastUpdated).not.toBe(tag);
        // The old tag still sees the change; the new one does not.
        expect((await store.updatedSince('device-1', type, tag)).serialNumbers).toEqual(['S1']);
        tag = answer.lastUpdated;
        expect((await store.updatedSince('device-1', type, tag)).serialNumbers).toEqual([]);

        // Two changes of one pass between polls are one serial; another pass's change comes along.
        await store.markUpdated(type, 'S2');
        await store.markUpdated(type, 'S2');
        await store.markUpdated(type, 'S1');
        answer = await store.updatedSince('device-1', type, tag);
        expect(sorted(answer.serialNumbers)).toEqual(['S1', 'S2']);
        expect((await store.updatedSince('device-1', type, answer.lastUpdated)).serialNumbers).toEqual([]);
      }),
    );

    test(
      'a pass updated before it was registered is returned to a device that asks without a tag',
      withStore(async (store) => {
        await store.markUpdated(type, 'S1');
        await store.register(registration('device-1', 'S1'));
        const answer = await store.updatedSince('device-1', type, undefined);
        expect(answer.serialNumbers).toEqual(['S1']);
        expect((await store.updatedSince('device-1', type, answer.lastUpdated)).serialNumbers).toEqual([]);
      }),
    );

    test(
      'markUpdated gives every pass a tag later than all before it, also when called concurrently',
      withStore(async (store) => {
        const count = 40;
        const serials = Array.from({ length: count }, (_, index) => `S${index}`);
        for (const serial of serials) await store.register(registration('device-1', serial));
        const tags = await Promise.all(serials.map((serial) => store.markUpdated(type, serial)));
        expect(new Set(tags).size).toBe(count);
        // Seen from the device, the tags are totally ordered: polling from each tag
        // returns the passes marked after it, so the answers nest with sizes 0 … count-1.
        const answers = await Promise.all(tags.map((tag) => store.updatedSince('device-1', type, tag)));
        const sizes = answers.map((answer) => answer.serialNumbers.length).sort((a, b) => a - b);
        expect(sizes).toEqual(Array.from({ length: count }, (_, index) => index));
        const bySize = [...answers].sort((a, b) => a.serialNumbers.length - b.serialNumbers.length);
        for (let index = 1; index < bySize.length; index++) {
          const smaller = new Set(bySize[index - 1]?.serialNumbers);
          expect(bySize[index]?.serialNumbers.filter((serial) => smaller.has(serial)).length).toBe(smaller.size);
        }
      }),
    );

    test(
      'removePushToken removes every registration with that token, on every pass, and returns them',
      withStore(async (store) => {
        await store.register(registration('device-1', 'S1', token(7)));
        await store.register(registration('device-1', 'S2', token(7), 'pass.com.example.other'));
        await store.register(registration('device-2', 'S1', token(8)));
        const removed = await store.removePushToken(token(7));
        expect(sorted(removed.map((entry) => `${entry.passTypeIdentifier}/${entry.serialNumber}`))).toEqual([
          'pass.com.example.member/S1',
          'pass.com.example.other/S2',
        ]);
        expect(await store.registrationsOf(type, 'S1')).toEqual([registration('device-2', 'S1', token(8))]);
        expect(await store.removePushToken(token(7))).toEqual([]);
      }),
    );

    test(
      'identifiers are exact keys: look-alikes, separators and JSON-ish text never collide',
      withStore(async (store) => {
        await store.register(registration('d', 'b","c', token(1), 'a'));
        await store.register(registration('d', 'c', token(2), 'a","b'));
        await store.register(registration('d', 'ß', token(3), 'a/b'));
        expect((await store.registrationsOf('a', 'b","c')).map((entry) => entry.pushToken)).toEqual([token(1)]);
        expect((await store.registrationsOf('a","b', 'c')).map((entry) => entry.pushToken)).toEqual([token(2)]);
        expect((await store.registrationsOf('a/b', 'ss')).length).toBe(0);
        expect((await store.updatedSince('d', 'a', undefined)).serialNumbers).toEqual(['b","c']);
      }),
    );

    test(
      'what it gives back does not change when the caller changes what it gave',
      withStore(async (store) => {
        const given = { ...registration('device-1', 'S1') };
        await store.register(given);
        (given as { pushToken: string }).pushToken = 'changed';
        expect((await store.registrationsOf(type, 'S1'))[0]?.pushToken).toBe(token(1));
      }),
    );
  });
}
