import { describe, expect, test } from 'vitest';
import { createMemoryWalletStore } from '../../src/wallet/memory-store.js';
import { runWalletStoreContract } from './store-contract.js';

runWalletStoreContract('createMemoryWalletStore', () => createMemoryWalletStore());

describe('createMemoryWalletStore', () => {
  const type = 'pass.com.example.member';
  const pushToken = 'ab'.repeat(32);

  test('tags are the clock in microseconds, or one more than the last tag when the clock stands still or goes back', async () => {
    let time = 1_764_000_000_000;
    const store = createMemoryWalletStore({ now: () => time });
    expect(await store.markUpdated(type, 'S1')).toBe('1764000000000000');
    expect(await store.markUpdated(type, 'S1')).toBe('1764000000000001');
    time -= 60_000;
    expect(await store.markUpdated(type, 'S2')).toBe('1764000000000002');
  });

  test('a tag from before a restart is older than any change made after it', async () => {
    let time = 1_764_000_000_000;
    const before = createMemoryWalletStore({ now: () => time });
    await before.register({ deviceLibraryIdentifier: 'device-1', passTypeIdentifier: type, serialNumber: 'S1', pushToken });
    await before.markUpdated(type, 'S1');
    const tag = (await before.updatedSince('device-1', type, undefined)).lastUpdated;

    time += 1000;
    const after = createMemoryWalletStore({ now: () => time });
    await after.register({ deviceLibraryIdentifier: 'device-1', passTypeIdentifier: type, serialNumber: 'S1', pushToken });
    expect((await after.updatedSince('device-1', type, tag)).serialNumbers).toEqual([]);
    await after.markUpdated(type, 'S1');
    expect((await after.updatedSince('device-1', type, tag)).serialNumbers).toEqual(['S1']);
  });
});
