import { describe, expect, test } from 'vitest';
import { runWalletStoreContract } from '../wallet/store-contract.js';
import { createSqlWalletStore } from '../../src/server/db/devices.js';
import { ENGINES, type TestDatabase } from './databases.js';

// E's WalletStore contract, on both engines.
for (const engine of ENGINES) {
  const open = new WeakMap<object, TestDatabase>();
  runWalletStoreContract(
    `createSqlWalletStore on ${engine.name}`,
    async () => {
      const database = await engine.open();
      const store = createSqlWalletStore(database.db);
      open.set(store, database);
      return store;
    },
    async (store) => open.get(store)?.dispose(),
  );
}

for (const engine of ENGINES) {
  describe(`createSqlWalletStore with events on ${engine.name}`, () => {
    test('a first registration and an unregistration add their events in the same transaction; a repeat adds none', async () => {
      const database = await engine.open();
      try {
        let woken = 0;
        const store = createSqlWalletStore(database.db, { events: true, onEvents: () => woken++ });
        const registration = {
          deviceLibraryIdentifier: 'device-1',
          passTypeIdentifier: 'pass.com.example.member',
          serialNumber: 'S1',
          pushToken: 'ab'.repeat(32),
        };
        expect(await store.register(registration)).toBe('created');
        expect(await store.register(registration)).toBe('existing');
        expect(await store.unregister('device-1', 'pass.com.example.member', 'S1')).toBe(true);
        expect(await store.unregister('device-1', 'pass.com.example.member', 'S1')).toBe(false);
        const rows = await database.db.query<{ type: string; body: string }>('select type, body from passmint_events order by seq');
        expect(rows.map((row) => row.type)).toEqual(['registration.created', 'registration.deleted']);
        expect(JSON.parse(rows[0]!.body).data).toEqual({
          serialNumber: 'S1',
          passTypeIdentifier: 'pass.com.example.member',
          deviceLibraryIdentifier: 'device-1',
          wallet: 'apple',
        });
        expect(woken).toBe(2);
      } finally {
        await database.dispose();
      }
    });
  });
}
