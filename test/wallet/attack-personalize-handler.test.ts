// The personalize endpoint of createWalletHandler under attack, over real HTTP
// on 127.0.0.1: a token that could be a manifest.json is never signed (its
// signature would pass for the issuer's on a forged pass), and `onPersonalize`
// returning false refuses a pass that takes no signup — 404, nothing signed,
// nothing reported.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PassSigner } from '../../src/pkpass/signer.js';
import { createWalletHandler, type WalletEvent } from '../../src/wallet/handler.js';
import { createMemoryWalletStore } from '../../src/wallet/memory-store.js';
import { PASS_TYPE_IDENTIFIER, signer } from '../pkpass/pki.js';
import { serve, type Served } from '../http/serve.js';

describe("attacks on createWalletHandler's personalize endpoint", () => {
  const events: WalletEvent[] = [];
  const heard: string[] = [];
  let signed = 0;
  let served: Served;

  beforeAll(async () => {
    const real = await signer();
    // The test PKI's signer (frozen), counting its signatures.
    const counting: PassSigner = {
      passTypeIdentifier: real.passTypeIdentifier,
      teamIdentifier: real.teamIdentifier,
      notBefore: real.notBefore,
      notAfter: real.notAfter,
      wwdrNotAfter: real.wwdrNotAfter,
      certificate: real.certificate,
      wwdr: real.wwdr,
      sign: (content, options) => {
        signed++;
        return real.sign(content, options);
      },
    };
    const handler = createWalletHandler({
      store: createMemoryWalletStore(),
      findPass: () => ({ authenticationToken: 'token-0123456789abcdef', lastModified: 0, pkpass: new Uint8Array() }),
      onEvent: (event) => {
        events.push(event);
      },
      // Only R-1 asks for a signup.
      onPersonalize: ({ serialNumber }) => {
        heard.push(serialNumber);
        return serialNumber === 'R-1';
      },
      signer: counting,
    });
    served = await serve(handler);
  });
  afterAll(async () => {
    await served?.close();
  });

  const personalize = (serial: string, personalizationToken: string): Promise<Response> =>
    fetch(`${served.origin}/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}/personalize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ personalizationToken, requiredPersonalizationInfo: { fullName: 'Mallory' } }),
    });

  test('a token with braces, whitespace or non-ASCII is 400 invalid-personalization before onPersonalize; nothing signed', async () => {
    for (const token of ['{"pass.json":"00"}', '}', 'a b', '\tabc', 'abc\u00e9', '\ufeffabc']) {
      const answer = await personalize('R-1', token);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe('invalid-personalization');
    }
    expect(heard).toEqual([]);
    expect(signed).toBe(0);
  });

  test('onPersonalize returning false is a 404 not-found: nothing signed, no pass.personalized; true signs', async () => {
    const refused = await personalize('P-1', 'a1b2c3');
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { code: string }).code).toBe('not-found');
    expect(signed).toBe(0);
    expect(events).toEqual([]);
    const accepted = await personalize('R-1', 'a1b2c3');
    expect(accepted.status).toBe(200);
    expect(signed).toBe(1);
    expect(events.map((event) => event.type)).toEqual(['pass.personalized']);
    expect(heard).toEqual(['P-1', 'R-1']);
  });
});
