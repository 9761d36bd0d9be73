// Rewards enrollment through createWalletHandler, over real HTTP on 127.0.0.1:
// a simulated device posts the signup, the answer is the personalization token
// signed with the pass certificate (checked by `openssl cms -verify` against
// the test PKI), pass.personalized carries the fields, and the pass Wallet
// fetches next is the personalized one.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packPass } from '../../src/pkpass/pack.js';
import { readPass } from '../../src/pkpass/read.js';
import type { Pass } from '../../src/types.js';
import { createWalletHandler, type WalletEvent, type WalletHandlerOptions } from '../../src/wallet/handler.js';
import { createMemoryWalletStore } from '../../src/wallet/memory-store.js';
import type { WalletPersonalization } from '../../src/wallet/personalization.js';
import { storeCardPass } from '../pass/passes.js';
import { png } from '../pkpass/helpers.js';
import { makePki, opensslVerify, PASS_TYPE_IDENTIFIER, signer, TEAM_IDENTIFIER } from '../pkpass/pki.js';
import { serve, type Served } from '../http/serve.js';
import { DeviceSimulator } from './device-simulator.js';

const serialNumber = 'R-1001';
const authenticationToken = 'rewards-token-0123456789abcdef';
const personalizationToken = 'f3a9c2e1-personalization-token-from-wallet';
const files = {
  'icon.png': png(29, 29),
  'strip.png': png(375, 144),
  'personalization.json': new TextEncoder().encode(
    JSON.stringify({
      requiredPersonalizationFields: ['PKPassPersonalizationFieldName', 'PKPassPersonalizationFieldEmailAddress'],
      description: 'Join Example Rewards',
    }),
  ),
  'personalizationLogo@2x.png': png(300, 80),
};

describe('rewards enrollment: the personalize endpoint', () => {
  const events: WalletEvent[] = [];
  const signups: WalletPersonalization[] = [];
  let served: Served;
  let device: DeviceSimulator;
  // The service's current pass: personalizable at first, personalized after the signup.
  let current: { pass: Pass; files: Record<string, Uint8Array>; lastModified: number };
  let failNext = false;

  const options = (): WalletHandlerOptions => ({
    store: createMemoryWalletStore(),
    findPass: (type, serial) =>
      type === PASS_TYPE_IDENTIFIER && serial === serialNumber
        ? {
            authenticationToken,
            lastModified: current.lastModified,
            pkpass: async () => packPass(current.pass, current.files, await signer(), { allowHttp: true }),
          }
        : undefined,
    onEvent: (event) => {
      events.push(event);
    },
    onPersonalize: (signup) => {
      if (failNext) {
        failNext = false;
        throw new Error('the accounts database is down');
      }
      signups.push(signup);
      const { 'personalization.json': _json, 'personalizationLogo@2x.png': _logo, ...rest } = files;
      const name = signup.requiredPersonalizationInfo.fullName ?? '';
      current = {
        pass: { ...current.pass, storeCard: { ...current.pass.storeCard, secondaryFields: [{ key: 'member', label: 'Member', value: name }] } } as Pass,
        files: rest,
        lastModified: current.lastModified + 60_000,
      };
    },
    signer: () => signer(),
    onError: () => undefined,
  });

  beforeAll(async () => {
    served = await serve(createWalletHandler(options()));
    const webServiceURL = `${served.origin}/`;
    current = {
      pass: {
        ...storeCardPass,
        passTypeIdentifier: PASS_TYPE_IDENTIFIER,
        teamIdentifier: TEAM_IDENTIFIER,
        serialNumber,
        authenticationToken,
        webServiceURL,
      } as unknown as Pass,
      files,
      lastModified: Date.UTC(2026, 10, 26, 9, 0, 0),
    };
    device = new DeviceSimulator(webServiceURL, 'device-1', '4a5f0e1b2c3d4e5f60718293a4b5c6d7');
    expect(await device.addPass({ passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber, authenticationToken })).toBe(201);
    expect(await device.fetchPass(PASS_TYPE_IDENTIFIER, serialNumber)).toBe(200);
  });
  afterAll(() => served.close());

  test('the signup: onPersonalize hears the data, the token comes back signed (openssl cms -verify), pass.personalized carries the fields, the next fetch is the personalized pass', async () => {
    const held = device.passes.get(`${PASS_TYPE_IDENTIFIER}/${serialNumber}`)!;
    expect([...(await readPass(held.bytes!)).files.keys()]).toContain('personalization.json');

    const info = { fullName: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace', emailAddress: 'ada@example.com' };
    const answer = await device.personalize({ passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber }, personalizationToken, info);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/octet-stream');
    // Wallet's check: a detached PKCS #7 signature of the token by the pass certificate, chaining to the (test) root.
    const pki = await makePki();
    expect(await opensslVerify(answer.body, new TextEncoder().encode(personalizationToken), pki.rootPath)).toEqual({ code: 0, stderr: '' });
    expect((await opensslVerify(answer.body, new TextEncoder().encode('another token'), pki.rootPath)).code).not.toBe(0);

    expect(signups).toEqual([{ passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber, personalizationToken, requiredPersonalizationInfo: info }]);
    const personalized = events.filter((event) => event.type === 'pass.personalized');
    expect(personalized.map((event) => event.data)).toEqual([{ serialNumber, passTypeIdentifier: PASS_TYPE_IDENTIFIER, personalization: info }]);

    // Wallet then asks for the pass (If-Modified-Since the first one): the personalized pass, without the signup files.
    expect(await device.fetchPass(PASS_TYPE_IDENTIFIER, serialNumber)).toBe(200);
    const pkg = await readPass(held.bytes!);
    expect((pkg.pass['storeCard'] as { secondaryFields: unknown[] }).secondaryFields).toEqual([{ key: 'member', label: 'Member', value: 'Ada Lovelace' }]);
    expect([...pkg.files.keys()]).not.toContain('personalization.json');
  });

  test('a body that is not a signup: 400 invalid-personalization; onPersonalize is not called', async () => {
    const before = signups.length;
    for (const body of [
      {},
      { personalizationToken: '', requiredPersonalizationInfo: {} },
      { personalizationToken: 't', requiredPersonalizationInfo: { emailAddress: 5 } },
      { personalizationToken: 't' },
    ]) {
      const response = await fetch(`${served.origin}/v1/passes/${PASS_TYPE_IDENTIFIER}/${serialNumber}/personalize`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('invalid-personalization');
    }
    expect(signups.length).toBe(before);
  });

  test('an unknown pass: 404; a wrong ApplePass token sent: 401; GET: 405 with Allow: POST', async () => {
    const body = JSON.stringify({ personalizationToken, requiredPersonalizationInfo: {} });
    expect((await fetch(`${served.origin}/v1/passes/${PASS_TYPE_IDENTIFIER}/nope/personalize`, { method: 'POST', body })).status).toBe(404);
    const wrong = await fetch(`${served.origin}/v1/passes/${PASS_TYPE_IDENTIFIER}/${serialNumber}/personalize`, {
      method: 'POST',
      body,
      headers: { authorization: 'ApplePass wrong-token-wrong-token' },
    });
    expect(wrong.status).toBe(401);
    const get = await fetch(`${served.origin}/v1/passes/${PASS_TYPE_IDENTIFIER}/${serialNumber}/personalize`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  test('onPersonalize fails: 500 that shows nothing, no signed token, no event', async () => {
    failNext = true;
    const before = events.length;
    const answer = await device.personalize({ passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber }, personalizationToken, {
      emailAddress: 'x@example.com',
    });
    expect(answer.status).toBe(500);
    expect(new TextDecoder().decode(answer.body)).not.toContain('accounts database');
    expect(events.length).toBe(before);
  });
});

describe('createWalletHandler without rewards enrollment', () => {
  test('no onPersonalize: the personalize path is not served (404)', async () => {
    const handler = createWalletHandler({
      store: createMemoryWalletStore(),
      findPass: () => ({ authenticationToken, lastModified: 0, pkpass: new Uint8Array() }),
    });
    const response = await handler(new Request('http://localhost/v1/passes/pass.a/b/personalize', { method: 'POST', body: '{}' }));
    expect(response.status).toBe(404);
  });

  test('onPersonalize without a signer: TypeError at creation', () => {
    expect(() => createWalletHandler({ store: createMemoryWalletStore(), findPass: () => undefined, onPersonalize: () => undefined })).toThrow(
      /needs a `signer`/,
    );
  });

  test('a signer of another pass type: 500, and onPersonalize is not called', async () => {
    let called = false;
    const errors: unknown[] = [];
    const handler = createWalletHandler({
      store: createMemoryWalletStore(),
      findPass: () => ({ authenticationToken, lastModified: 0, pkpass: new Uint8Array() }),
      onPersonalize: () => {
        called = true;
      },
      signer: await signer(),
      onError: (error) => errors.push(error),
    });
    const response = await handler(
      new Request('http://localhost/v1/passes/pass.other.type/b/personalize', {
        method: 'POST',
        body: JSON.stringify({ personalizationToken, requiredPersonalizationInfo: {} }),
      }),
    );
    expect(response.status).toBe(500);
    expect(called).toBe(false);
    expect(String(errors[0])).toContain('no signer for pass type "pass.other.type"');
  });
});
