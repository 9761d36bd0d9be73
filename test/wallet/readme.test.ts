// The README's "Keeping passes current" examples, in substance: if this changes, change the README.
import { afterAll, expect, test } from 'vitest';
import { createApnsClient, notifyPassUpdated } from '../../src/apns/index.js';
import { packPass, prepareFiles } from '../../src/pkpass/index.js';
import type { Pass } from '../../src/types.js';
import { createMemoryWalletStore, createWalletHandler, type WalletEvent } from '../../src/wallet/index.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';
import { apnsPki } from '../apns/pki.js';
import { startApnsStandIn } from '../apns/stand-in.js';
import { genericPass } from '../pass/passes.js';
import { imageSet } from '../pkpass/helpers.js';
import { PASS_TYPE_IDENTIFIER, signer as testSigner, TEAM_IDENTIFIER } from '../pkpass/pki.js';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of cleanup) await close();
});

test("serving Apple's web service and pushing an update, as the README shows", async () => {
  const pass = {
    ...genericPass,
    passTypeIdentifier: PASS_TYPE_IDENTIFIER,
    teamIdentifier: TEAM_IDENTIFIER,
    serialNumber: 'E5982H-I2',
    authenticationToken: 'vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc',
    webServiceURL: 'https://passes.example.com/wallet/',
  } as unknown as Pass;
  const outbox: WebhookEvent[] = [];
  const db = {
    findPass: async (type: string, serial: string) =>
      type === pass.passTypeIdentifier && serial === pass.serialNumber ? { pass, updatedAt: new Date('2026-11-23T09:30:15Z') } : undefined,
    outbox: { add: async (event: WebhookEvent) => void outbox.push(event) },
  };

  const store = createMemoryWalletStore();
  const signer = await testSigner();
  const images = await prepareFiles(imageSet());
  const wallet = createWalletHandler({
    store,
    basePath: '/wallet',
    findPass: async (passTypeIdentifier, serialNumber) => {
      const row = await db.findPass(passTypeIdentifier, serialNumber);
      return row && { authenticationToken: row.pass.authenticationToken ?? '', lastModified: row.updatedAt, pkpass: () => packPass(row.pass, images, signer) };
    },
    onEvent: (event: WalletEvent) => db.outbox.add(event),
  });

  const pushToken = 'ab'.repeat(32);
  const registration = `https://passes.example.com/wallet/v1/devices/device-1/registrations/${pass.passTypeIdentifier}/${pass.serialNumber}`;
  const auth = { authorization: `ApplePass ${pass.authenticationToken}` };
  expect((await wallet(new Request(registration, { method: 'POST', headers: auth, body: JSON.stringify({ pushToken }) }))).status).toBe(201);
  const latest = await wallet(new Request(`https://passes.example.com/wallet/v1/passes/${pass.passTypeIdentifier}/${pass.serialNumber}`, { headers: auth }));
  expect([latest.status, latest.headers.get('content-type'), latest.headers.get('last-modified')]).toEqual([
    200,
    'application/vnd.apple.pkpass',
    'Mon, 23 Nov 2026 09:30:15 GMT',
  ]);

  const pki = apnsPki();
  const standIn = await startApnsStandIn(pki);
  const apns = createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.passKeyPem }, origin: standIn.origin, ca: pki.caPem });
  cleanup.push(
    () => apns.close(),
    () => standIn.close(),
  );
  const { lastUpdated, pushes, removed } = await notifyPassUpdated(
    { store, apns, onEvent: (event) => db.outbox.add(event) },
    pass.passTypeIdentifier,
    pass.serialNumber,
  );
  expect(pushes.map(({ pushToken: token, result }) => [token, result.outcome])).toEqual([[pushToken, 'sent']]);
  expect(removed).toEqual([]);
  expect((await store.updatedSince('device-1', pass.passTypeIdentifier, '0')).lastUpdated).toBe(lastUpdated);
  expect(outbox.map((event) => event.type)).toEqual(['registration.created']);
});
