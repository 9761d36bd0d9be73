import { describe, test } from 'vitest';
import { createMemoryWalletStore } from '../../src/wallet/memory-store.js';
import { RUNS } from '../arbitraries.js';
import { checkUpdateTags } from './update-tags-property.js';

// The property lives in ./update-tags-property.ts; the SQL store runs it too (test/server/update-tags.property.test.ts).
describe('update tags under any interleaving of updates and polls', () => {
  test('every change is seen exactly once by each polling device, and no tag goes backwards', async () => {
    await checkUpdateTags(() => createMemoryWalletStore(), Math.max(50, Math.floor(RUNS / 5)));
  });
});
