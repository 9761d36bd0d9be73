// The wallet's update-tag property (test/wallet/update-tags-property.ts) on
// the SQL store: for any interleaving of updates and polls, every change is
// seen exactly once by each polling device and no tag goes backwards — with
// tags from the database's counter, on PGlite and on PostgreSQL. One database
// per engine; each run registers under a pass type of its own.
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createSqlWalletStore } from '../../src/server/db/devices.js';
import type { WalletStore } from '../../src/wallet/store.js';
import { RUNS } from '../arbitraries.js';
import { checkUpdateTags } from '../wallet/update-tags-property.js';
import { ENGINES, type TestDatabase } from './databases.js';

for (const engine of ENGINES) {
  describe(`update tags of createSqlWalletStore on ${engine.name}`, () => {
    let database: TestDatabase;
    let store: WalletStore;

    beforeAll(async () => {
      database = await engine.open();
      store = createSqlWalletStore(database.db);
    });

    afterAll(async () => {
      await database?.dispose();
    });

    test('every change is seen exactly once by each polling device, and no tag goes backwards', async () => {
      await checkUpdateTags(() => store, Math.max(25, Math.floor(RUNS / 20)));
    }, 60_000);
  });
}
