// registration.* events say which wallet: the event schema types `wallet`,
// `deviceLibraryIdentifier` and `objectId` as non-empty strings, and a
// receiver's checkEvent holds them to it.
import { describe, expect, test } from 'vitest';
import { checkEvent } from '../../src/webhooks/event-check.js';
import { createEvent } from '../../src/webhooks/event.js';

const base = { serialNumber: 'M-1', passTypeIdentifier: 'pass.com.example.member' };

describe('registration events name their wallet', () => {
  test("Apple's and Google's shapes are events", () => {
    const apple = createEvent('registration.created', { ...base, wallet: 'apple', deviceLibraryIdentifier: 'device-1' });
    const google = createEvent('registration.deleted', { ...base, wallet: 'google', objectId: '3388000000012345678.pass_2ecom_2eexample_2emember.M-1' });
    expect(checkEvent(apple)).toBeUndefined();
    expect(checkEvent(google)).toBeUndefined();
    expect(google.data.wallet).toBe('google');
  });

  test('an empty or non-string wallet is refused at its place', () => {
    const event = { id: '9f1c7d5e-3b0a-4c7e-9a51-2d7f8e6b4c10', type: 'registration.created', created: '2026-03-01T12:00:00Z' };
    expect(checkEvent({ ...event, data: { ...base, wallet: '' } })?.path).toBe('/data/wallet');
    expect(checkEvent({ ...event, data: { ...base, wallet: 7 } })?.path).toBe('/data/wallet');
    expect(checkEvent({ ...event, data: { ...base, objectId: '' } })?.path).toBe('/data/objectId');
    // Other event types keep their own data: a wallet member there is just an extra member.
    expect(checkEvent({ ...event, type: 'pass.updated', data: { ...base, wallet: '' } })).toBeUndefined();
  });
});
