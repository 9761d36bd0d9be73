import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createApnsClient } from '../../src/apns/client.js';
import { notifyPassUpdated } from '../../src/apns/notify.js';
import { createMemoryWalletStore } from '../../src/wallet/memory-store.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';
import { apnsPki, PASS_TYPE_IDENTIFIER, type ApnsPki } from './pki.js';
import { startApnsStandIn, type Answer } from './stand-in.js';

const token = (name: string): string => Buffer.from(name.padEnd(32, '.')).toString('hex');
let pki: ApnsPki;
const cleanup: (() => Promise<void>)[] = [];
beforeAll(() => {
  pki = apnsPki();
});
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

describe('notifyPassUpdated', () => {
  test('moves the tag, pushes once per device token, removes the gone token everywhere and reports registration.deleted; retry and rejected keep theirs', async () => {
    const answers: Record<string, Answer> = {
      [token('alive')]: { status: 200 },
      [token('gone')]: { status: 410, reason: 'Unregistered' },
      [token('busy')]: { status: 429, reason: 'TooManyRequests' },
      [token('bad')]: { status: 400, reason: 'BadDeviceToken' },
    };
    const standIn = await startApnsStandIn(pki, { answer: (push) => answers[push.pushToken] ?? { status: 500 } });
    const apns = createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.passKeyPem }, origin: standIn.origin, ca: pki.caPem });
    cleanup.push(
      () => apns.close(),
      () => standIn.close(),
    );

    const store = createMemoryWalletStore();
    const register = (device: string, pushToken: string, serialNumber = 'S1', passTypeIdentifier = PASS_TYPE_IDENTIFIER) =>
      store.register({ deviceLibraryIdentifier: device, passTypeIdentifier, serialNumber, pushToken });
    await register('alive', token('alive'));
    await register('gone', token('gone'));
    await register('gone', token('gone'), 'S2', 'pass.com.example.other'); // the same device, another pass
    await register('busy', token('busy'));
    await register('bad', token('bad'));
    const before = (await store.updatedSince('alive', PASS_TYPE_IDENTIFIER, undefined)).lastUpdated;

    const events: WebhookEvent[] = [];
    const result = await notifyPassUpdated({ store, apns, onEvent: (event) => void events.push(event) }, PASS_TYPE_IDENTIFIER, 'S1');

    expect(BigInt(result.lastUpdated) > BigInt(before)).toBe(true);
    expect(Object.fromEntries(result.pushes.map(({ pushToken, result: r }) => [pushToken, r.outcome]))).toEqual({
      [token('alive')]: 'sent',
      [token('gone')]: 'gone',
      [token('busy')]: 'retry',
      [token('bad')]: 'gone',
    });
    expect(standIn.pushes).toHaveLength(4);
    expect(standIn.pushes.every((push) => push.body === '{}' && push.headers['apns-topic'] === PASS_TYPE_IDENTIFIER)).toBe(true);
    expect(result.removed.map((entry) => `${entry.deviceLibraryIdentifier} ${entry.passTypeIdentifier}/${entry.serialNumber}`).sort()).toEqual([
      `bad ${PASS_TYPE_IDENTIFIER}/S1`,
      `gone pass.com.example.other/S2`,
      `gone ${PASS_TYPE_IDENTIFIER}/S1`,
    ]);
    expect((await store.registrationsOf(PASS_TYPE_IDENTIFIER, 'S1')).map((entry) => entry.deviceLibraryIdentifier).sort()).toEqual(['alive', 'busy']);
    expect(await store.registrationsOf('pass.com.example.other', 'S2')).toEqual([]);
    expect(events.map((event) => [event.type, (event.data as { deviceLibraryIdentifier: string }).deviceLibraryIdentifier]).sort()).toEqual([
      ['registration.deleted', 'bad'],
      ['registration.deleted', 'gone'],
      ['registration.deleted', 'gone'],
    ]);
    // The devices that stay see the change on their next poll.
    expect((await store.updatedSince('alive', PASS_TYPE_IDENTIFIER, before)).serialNumbers).toEqual(['S1']);
  });

  test('a pass nobody registered: the tag moves, nothing is pushed', async () => {
    const store = createMemoryWalletStore();
    const pusher = { push: () => Promise.reject(new Error('must not push')) };
    const result = await notifyPassUpdated({ store, apns: pusher }, PASS_TYPE_IDENTIFIER, 'nobody');
    expect(result.pushes).toEqual([]);
    expect(result.removed).toEqual([]);
    expect(result.lastUpdated).toMatch(/^\d+$/);
  });
});
