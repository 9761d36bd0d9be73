// The whole update loop over real HTTP on 127.0.0.1: a device simulator
// following Apple's protocol, the wallet handler behind node:http, a local
// HTTP/2 TLS server standing in for APNs (client certificate checked), and
// the customer's webhook receiver verifying signed registration events.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApnsClient, type ApnsClient } from '../../src/apns/client.js';
import { notifyPassUpdated } from '../../src/apns/notify.js';
import { createWalletHandler, type WalletEvent } from '../../src/wallet/handler.js';
import { formatHttpDate } from '../../src/wallet/http-date.js';
import { createMemoryWalletStore } from '../../src/wallet/memory-store.js';
import { dispatchEvent, generateWebhookSecret, receiveWebhook, SIGNATURE_HEADER, type WebhookEvent } from '../../src/webhooks/index.js';
import { packPass } from '../../src/pkpass/pack.js';
import { readPass } from '../../src/pkpass/read.js';
import { verifyPass } from '../../src/pkpass/verify.js';
import type { Pass } from '../../src/types.js';
import { apnsPki, PASS_TYPE_IDENTIFIER } from '../apns/pki.js';
import { genericPass } from '../pass/passes.js';
import { imageSet } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER as SIGNING_PASS_TYPE, signer, TEAM_IDENTIFIER } from '../pkpass/pki.js';
import { startApnsStandIn, type ReceivedPush, type StandIn } from '../apns/stand-in.js';
import { serve, type Served } from '../http/serve.js';
import { startServer, type TestServer } from '../webhooks/servers.js';
import { DeviceSimulator } from './device-simulator.js';

const serialNumber = 'E5982H-I2';
const authenticationToken = 'vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc';
const images = imageSet();

describe("a pass kept current, end to end over Apple's protocol", () => {
  const store = createMemoryWalletStore();
  const secret = generateWebhookSecret();
  const received: { event: WebhookEvent; signature: string | undefined }[] = [];
  const dispatched: string[] = [];
  const devices = new Map<string, DeviceSimulator>();
  // The service's current version of the pass, and how it packs it: signed, with the throwaway openssl PKI.
  let version = { pass: {} as Pass, lastModified: Date.UTC(2026, 10, 23, 9, 0, 0) };
  const pack = async (pass: Pass): Promise<Uint8Array> => packPass(pass, images, await signer(), { allowHttp: true });
  const passVersion = (webServiceURL: string, secondary: string): Pass =>
    ({
      ...genericPass,
      passTypeIdentifier: PASS_TYPE_IDENTIFIER,
      teamIdentifier: TEAM_IDENTIFIER,
      serialNumber,
      authenticationToken,
      webServiceURL,
      generic: { ...genericPass.generic, secondaryFields: [{ key: 'level', label: 'Level', value: secondary, changeMessage: 'Your level is now %@' }] },
    }) as unknown as Pass;
  let receiver: TestServer;
  let standIn: StandIn;
  let wallet: Served;
  let apns: ApnsClient;

  const fanOut = async (event: WalletEvent): Promise<void> => {
    const results = await dispatchEvent(event, [{ url: receiver.url, secret, state: 'enabled' as const }], { allowPrivateNetworks: true });
    dispatched.push(...results.map(({ result }) => `${event.type}:${result.outcome}`));
  };

  beforeAll(async () => {
    const pki = apnsPki();
    receiver = await startServer(async (request, response) => {
      // The customer's receiver: verifies the signature, then keeps the event.
      const signature = request.headers[SIGNATURE_HEADER.toLowerCase()];
      const event = await receiveWebhook(request, secret);
      received.push({ event, signature: typeof signature === 'string' ? signature : undefined });
      response.statusCode = 200;
      response.end();
    });
    standIn = await startApnsStandIn(pki, {
      answer: (push: ReceivedPush) => {
        const device = devices.get(push.pushToken);
        if (device === undefined) return { status: 410, reason: 'Unregistered' };
        device.receivePush(push.body);
        return { status: 200 };
      },
    });
    apns = createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.passKeyPem }, origin: standIn.origin, ca: pki.caPem });
    const handler = createWalletHandler({
      store,
      basePath: '/wallet',
      findPass: (passTypeIdentifier, serial) =>
        passTypeIdentifier === PASS_TYPE_IDENTIFIER && serial === serialNumber
          ? { authenticationToken, lastModified: version.lastModified, pkpass: () => pack(version.pass) }
          : undefined,
      onEvent: fanOut,
    });
    wallet = await serve(handler);
    version = { pass: passVersion(`${wallet.origin}/wallet/`, 'Silver'), lastModified: version.lastModified };
  });

  afterAll(async () => {
    await apns.close();
    await Promise.all([standIn.close(), wallet.close(), receiver.close()]);
  });

  test('register, push, poll, fetch a signed pass, 304, unregister, log — and the customer hears of it, signed', async () => {
    expect(SIGNING_PASS_TYPE).toBe(PASS_TYPE_IDENTIFIER);
    const device = new DeviceSimulator(`${wallet.origin}/wallet/`, '6b7c2f1d0a9e4c3b8d7e6f5a4b3c2d1e', 'a1'.repeat(32));
    devices.set(device.pushToken, device);
    const pass = { passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber, authenticationToken };

    // Added to Wallet: registered, then registered again (Wallet does that) → 200.
    const added = await pack(version.pass);
    expect(await device.addPass(pass, added)).toBe(201);
    expect(await device.addPass(pass, added)).toBe(200);
    const stranger = new DeviceSimulator(device.webServiceURL, 'ffff0000ffff0000ffff0000ffff0000', 'b2'.repeat(32));
    expect(await stranger.addPass({ ...pass, authenticationToken: 'not-the-token-of-this-pass' })).toBe(401);

    // The service changes the pass and tells the devices.
    version = { pass: passVersion(version.pass.webServiceURL ?? '', 'Gold'), lastModified: Date.UTC(2026, 10, 23, 10, 15, 30) };
    const notified = await notifyPassUpdated({ store, apns, onEvent: fanOut }, PASS_TYPE_IDENTIFIER, serialNumber);
    expect(notified.pushes).toEqual([{ pushToken: device.pushToken, result: expect.objectContaining({ outcome: 'sent', status: 200 }) }]);
    expect(notified.removed).toEqual([]);
    const [push] = standIn.pushes;
    expect(push?.method).toBe('POST');
    expect(push?.path).toBe(`/3/device/${device.pushToken}`);
    expect(push?.headers['apns-topic']).toBe(PASS_TYPE_IDENTIFIER);
    expect(push?.headers['apns-push-type']).toBeUndefined();
    expect(push?.certificateUid).toBe(PASS_TYPE_IDENTIFIER);
    expect(device.pushes).toEqual(['{}']);

    // On the push: which passes changed? Then fetch each one.
    const update = await device.update(PASS_TYPE_IDENTIFIER);
    expect(update).toEqual({ serialsStatus: 200, serialNumbers: [serialNumber], fetched: [200] });
    expect(device.tags.get(PASS_TYPE_IDENTIFIER)).toBe(notified.lastUpdated);
    const held = device.passes.get(`${PASS_TYPE_IDENTIFIER}/${serialNumber}`);
    // What the device fetched is the new version, signed: it reads and verifies like any .pkpass.
    const fetched = await readPass(held?.bytes ?? new Uint8Array());
    expect(fetched.pass).toEqual(version.pass);
    const bytes = held?.bytes ?? new Uint8Array();
    const roots = [(await makePki()).rootPem];
    // The plain-http webServiceURL of this local test is an error for Wallet on a customer's
    // device, and accepted (a warning) on a development device: allowHttp says which.
    const strict = await verifyPass(bytes, { roots });
    expect(strict.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.code)).toEqual(['insecure-web-service-url']);
    const verified = await verifyPass(bytes, { roots, allowHttp: true });
    expect(verified.ok).toBe(true);
    expect(verified.issues.map((issue) => issue.code)).toContain('insecure-web-service-url');
    expect(verified.signer?.passTypeIdentifier).toBe(PASS_TYPE_IDENTIFIER);
    expect(held?.lastModified).toBe(formatHttpDate(version.lastModified));
    // Asked again: not modified since; and nothing new since the tag.
    expect(await device.fetchPass(PASS_TYPE_IDENTIFIER, serialNumber)).toBe(304);
    expect((await device.update(PASS_TYPE_IDENTIFIER)).serialsStatus).toBe(204);

    // Removed from Wallet, and Wallet's logs.
    expect(await device.removePass(PASS_TYPE_IDENTIFIER, serialNumber)).toBe(200);
    expect(await device.log(['Web service error for pass.com.example.member: unexpected 500'])).toBe(200);
    expect(await store.registrationsOf(PASS_TYPE_IDENTIFIER, serialNumber)).toEqual([]);

    expect(device.exchanges.map(({ method, status }) => `${method} ${status}`)).toEqual([
      'POST 201',
      'POST 200',
      'GET 200',
      'GET 200',
      'GET 304',
      'GET 204',
      'DELETE 200',
      'POST 200',
    ]);
    // The customer's receiver verified both events' signatures (receiveWebhook throws otherwise).
    expect(dispatched).toEqual(['registration.created:received', 'registration.deleted:received']);
    expect(received.map(({ event }) => [event.type, event.data])).toEqual([
      [
        'registration.created',
        { serialNumber, passTypeIdentifier: PASS_TYPE_IDENTIFIER, deviceLibraryIdentifier: device.deviceLibraryIdentifier, wallet: 'apple' },
      ],
      [
        'registration.deleted',
        { serialNumber, passTypeIdentifier: PASS_TYPE_IDENTIFIER, deviceLibraryIdentifier: device.deviceLibraryIdentifier, wallet: 'apple' },
      ],
    ]);
    expect(received.every(({ signature }) => /^sha1=[0-9a-f]{40}$/.test(signature ?? ''))).toBe(true);
  });

  test('a device APNs calls gone loses its registrations, and the customer gets registration.deleted', async () => {
    received.length = 0;
    const gone = new DeviceSimulator(`${wallet.origin}/wallet/`, '0123456789abcdef0123456789abcdef', 'c3'.repeat(32));
    const pass = { passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber, authenticationToken };
    expect(await gone.addPass(pass)).toBe(201);
    // Not in `devices`: the stand-in answers 410 Unregistered for its token.
    const notified = await notifyPassUpdated({ store, apns, onEvent: fanOut }, PASS_TYPE_IDENTIFIER, serialNumber);
    expect(notified.pushes.map(({ result }) => [result.status, result.reason, result.outcome])).toEqual([[410, 'Unregistered', 'gone']]);
    expect(notified.removed.map((registration) => registration.deviceLibraryIdentifier)).toEqual([gone.deviceLibraryIdentifier]);
    expect(await store.registrationsOf(PASS_TYPE_IDENTIFIER, serialNumber)).toEqual([]);
    expect(received.map(({ event }) => event.type)).toEqual(['registration.created', 'registration.deleted']);
  });
});
