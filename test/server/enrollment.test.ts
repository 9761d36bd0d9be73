// Rewards enrollment's small holes (issue 28), on both engines over real HTTP:
// a signup missing a field the pass's form asks for — or carrying none, or
// only prototype keys — is refused 400 and stores nothing; once a pass is
// enrolled, no further signup is signed (not even the first one again).
// And Apple's pass fetch on a service without a signing certificate answers
// 409 signing-not-configured like the download, with nothing in the error log.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { png } from '../pkpass/helpers.js';
import { makePki, opensslVerify, PASS_TYPE_IDENTIFIER, type Pki } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = {
  name: 'Rewards card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: {
    backgroundColor: 'rgb(0, 70, 50)',
    nfc: { message: 'rewards-0001', encryptionPublicKey: 'MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC' },
    storeCard: { secondaryFields: [{ key: 'member', label: 'Member', value: '${fullName}' }] },
  },
  placeholder: ['fullName'],
};
const form = {
  requiredPersonalizationFields: ['PKPassPersonalizationFieldName', 'PKPassPersonalizationFieldEmailAddress'],
  description: 'Join Example Rewards',
};

for (const engine of ENGINES) {
  describe(`enrollment refusals on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let pki: Pki;
    let templateId: number;

    /** Posts a raw body (so that `__proto__` arrives as a key of its own). */
    const personalize = (serial: string, body: string): Promise<Response> =>
      fetch(`${service.url}/wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}/personalize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const signup = (token: string, info: Record<string, unknown>): string => JSON.stringify({ personalizationToken: token, requiredPersonalizationInfo: info });
    const stateOf = async (serial: string): Promise<{ version: number; values: unknown; events: string[] }> => {
      const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}`)).body as { version: number; values: unknown };
      const events = (await service.call('GET', '/v1/events?limit=100')).body as { items: { type: string; data: { serialNumber?: string } }[] };
      return {
        version: pass.version,
        values: pass.values,
        events: events.items.filter((event) => event.data.serialNumber === serial).map((event) => event.type),
      };
    };

    beforeAll(async () => {
      pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      database = await engine.open();
      service = await startService(database, { signer });
      templateId = (await service.call('POST', '/v1/templates', template)).body.id as number;
      for (const [path, bytes] of [
        ['icon.png', png(29, 29)],
        ['personalization.json', new TextEncoder().encode(JSON.stringify(form))],
      ] as const) {
        expect((await service.call('PUT', `/v1/templates/${templateId}/files/${path}`, bytes)).status).toBe(201);
      }
      for (const serial of ['E-1', 'E-2']) {
        expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { fullName: 'New member' }, serialNumber: serial })).status).toBe(
          201,
        );
      }
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('a signup without what the form asks for, or with only prototype keys, is 400 invalid-personalization and stores nothing', async () => {
      const before = await stateOf('E-1');
      expect(before).toEqual({ version: 1, values: { fullName: 'New member' }, events: ['pass.created'] });
      const cases: [string, string][] = [
        [signup('t0k3n-1', {}), 'PKPassPersonalizationFieldName, PKPassPersonalizationFieldEmailAddress'],
        [
          '{"personalizationToken":"t0k3n-2","requiredPersonalizationInfo":{"__proto__":{"fullName":"Mallory","emailAddress":"m@example.com"}}}',
          'PKPassPersonalizationFieldName, PKPassPersonalizationFieldEmailAddress',
        ],
        [signup('t0k3n-3', { constructor: 'Mallory', toString: 'x' }), 'PKPassPersonalizationFieldName, PKPassPersonalizationFieldEmailAddress'],
        [signup('t0k3n-4', { fullName: 'Ada Lovelace' }), 'PKPassPersonalizationFieldEmailAddress'],
        [signup('t0k3n-5', { emailAddress: 'ada@example.com' }), 'PKPassPersonalizationFieldName'],
        [signup('t0k3n-6', { fullName: '   ', emailAddress: 'ada@example.com' }), 'PKPassPersonalizationFieldName'],
      ];
      for (const [body, named] of cases) {
        const answer = await personalize('E-1', body);
        expect(answer.status).toBe(400);
        const problem = (await answer.json()) as { code: string; detail: string };
        expect(problem.code).toBe('invalid-personalization');
        expect(problem.detail).toContain(named);
      }
      expect(await stateOf('E-1')).toEqual(before);
      // A real signup still goes through afterwards.
      const real = await personalize('E-1', signup('first-token', { givenName: 'Ada', emailAddress: 'ada@example.com' }));
      expect(real.status).toBe(200);
      const after = await stateOf('E-1');
      expect(after.version).toBe(2);
      expect(after.values).toMatchObject({
        givenName: 'Ada',
        emailAddress: 'ada@example.com',
        personalization: { givenName: 'Ada', emailAddress: 'ada@example.com' },
      });
    });

    test('an enrolled pass signs no further token: the same signup or a new token is 404, nothing changed', async () => {
      const info = { fullName: 'Grace Hopper', emailAddress: 'grace@example.com' };
      const first = await personalize('E-2', signup('grace-first-token', info));
      expect(first.status).toBe(200);
      expect(await opensslVerify(new Uint8Array(await first.arrayBuffer()), new TextEncoder().encode('grace-first-token'), pki.rootPath)).toEqual({
        code: 0,
        stderr: '',
      });
      const enrolled = await stateOf('E-2');
      expect(enrolled.events.filter((type) => type === 'pass.personalized')).toHaveLength(1);
      for (const body of [
        signup('grace-first-token', info),
        signup('a-new-token-0001', info),
        signup('a-new-token-0002', { fullName: 'Mallory', emailAddress: 'm@example.com' }),
      ]) {
        const answer = await personalize('E-2', body);
        expect(answer.status).toBe(404);
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(((await answer.json()) as { code: string }).code).toBe('not-found');
      }
      expect(await stateOf('E-2')).toEqual(enrolled);
    });
  });

  describe(`Apple's pass fetch without signing on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    const logged: unknown[] = [];

    beforeAll(async () => {
      database = await engine.open();
      service = await startService(database, { onError: (error) => logged.push(error) });
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('answers 409 signing-not-configured as the download does, with nothing in the error log', async () => {
      const id = (await service.call('POST', '/v1/templates', { ...template, description: { storeCard: {} }, placeholder: [] })).body.id as number;
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { values: {}, serialNumber: 'U-1' })).status).toBe(201);
      const { authenticationToken } = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/U-1/passjson`)).body as { authenticationToken: string };
      const download = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/U-1/pkpass`);
      expect([download.status, download.body.code]).toEqual([409, 'signing-not-configured']);
      for (let round = 0; round < 3; round++) {
        const fetched = await fetch(`${service.url}/wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/U-1`, {
          headers: { authorization: `ApplePass ${authenticationToken}` },
        });
        expect(fetched.status).toBe(409);
        expect(fetched.headers.get('content-type')).toContain('application/problem+json');
        expect(((await fetched.json()) as { code: string }).code).toBe('signing-not-configured');
      }
      // A wrong token is still a 401 before anything else.
      const wrong = await fetch(`${service.url}/wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/U-1`, { headers: { authorization: 'ApplePass not-the-token' } });
      expect(wrong.status).toBe(401);
      expect(logged).toEqual([]);
    });
  });
}
