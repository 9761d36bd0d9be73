import { runWalletStoreContract } from '../wallet/store-contract.js';
import { createSqlWalletStore } from '../../src/server/wallet-store.js';
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
