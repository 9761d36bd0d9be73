// Attacks on Apple's personalize endpoint of `passmint serve`, over real HTTP
// on 127.0.0.1. Apple documents no token for that call, so anyone who knows a
// pass's serial number can post to it: it must neither sign what a stranger
// chooses (a manifest.json signed with the pass certificate is a forged pass),
// nor overwrite the values of a pass that asks for no signup or already has one.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = {
  name: 'Rewards card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: {
    backgroundColor: 'rgb(0, 70, 50)',
    storeCard: { primaryFields: [{ key: 'member', label: 'Member', value: '${fullName}' }] },
  },
  placeholder: ['fullName'],
};
const personalization = { requiredPersonalizationFields: ['PKPassPersonalizationFieldName'], description: 'Join Example Rewards' };

describe('attacks on the personalize endpoint', () => {
  let database: TestDatabase;
  let service: Service;
  let rewards: number;
  let plain: number;

  const personalize = (serial: string, body: unknown, authorization?: string): Promise<Response> =>
    fetch(`${service.url}/wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}/personalize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
      body: JSON.stringify(body),
    });
  const stateOf = async (serial: string): Promise<{ version: number; values: unknown; events: number }> => {
    const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}`)).body as { version: number; values: unknown };
    const events = (await service.call('GET', '/v1/events?limit=100')).body as { items: { type: string; data: { serialNumber?: string } }[] };
    return { version: pass.version, values: pass.values, events: events.items.filter((event) => event.data.serialNumber === serial).length };
  };

  beforeAll(async () => {
    const pki = await makePki();
    const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
    database = await ENGINES[0]!.open();
    service = await startService(database, { signer });
    rewards = (await service.call('POST', '/v1/templates', template)).body.id as number;
    plain = (await service.call('POST', '/v1/templates', { ...template, name: 'Plain card' })).body.id as number;
    for (const id of [rewards, plain]) expect((await service.call('PUT', `/v1/templates/${id}/files/icon.png`, png(29, 29))).status).toBe(201);
    const file = new TextEncoder().encode(JSON.stringify(personalization));
    expect((await service.call('PUT', `/v1/templates/${rewards}/files/personalization.json`, file)).status).toBe(201);
    for (const [id, serial] of [
      [rewards, 'R-1'],
      [rewards, 'R-2'],
      [rewards, 'R-3'],
      [plain, 'P-1'],
    ] as const) {
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { values: { fullName: 'Ada Lovelace' }, serialNumber: serial })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test('a token that could be a manifest.json is not signed: 400 invalid-personalization, nothing changed', async () => {
    const before = await stateOf('R-1');
    // What a forger would send: the manifest of a pass of their own, to get the issuer's signature over it.
    for (const token of ['{"pass.json":"0000000000000000000000000000000000000000"}', ' {"icon.png":"00"}', 'token with spaces', 'tökén']) {
      const answer = await personalize('R-1', { personalizationToken: token, requiredPersonalizationInfo: { fullName: 'Mallory' } });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe('invalid-personalization');
    }
    expect(await stateOf('R-1')).toEqual(before);
  });

  test('a pass whose template asks for no signup cannot be personalized: 404, its values stay', async () => {
    const before = await stateOf('P-1');
    const answer = await personalize('P-1', { personalizationToken: 'a1b2c3d4e5f6', requiredPersonalizationInfo: { fullName: 'Mallory' } });
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { code: string }).code).toBe('not-found');
    expect(await stateOf('P-1')).toEqual(before);
  });

  test("a pass already personalized is not personalized again by a stranger (404, the member's values stay); the same signup again is not signed again (404), nothing changed", async () => {
    const first = await personalize('R-2', { personalizationToken: 'a1b2c3d4e5f6', requiredPersonalizationInfo: { fullName: 'Grace Hopper' } });
    expect(first.status).toBe(200);
    const before = await stateOf('R-2');
    expect(before.values).toMatchObject({ fullName: 'Grace Hopper' });
    const again = await personalize('R-2', { personalizationToken: 'f6e5d4c3b2a1', requiredPersonalizationInfo: { fullName: 'Mallory' } });
    expect(again.status).toBe(404);
    expect(await stateOf('R-2')).toEqual(before);
    // The same signup again: the pass is enrolled, the certificate signs nothing more for it (one token per pass, the first).
    const repeat = await personalize('R-2', { personalizationToken: 'a1b2c3d4e5f6', requiredPersonalizationInfo: { fullName: 'Grace Hopper' } });
    expect(repeat.status).toBe(404);
    expect(((await repeat.json()) as { code: string }).code).toBe('not-found');
    expect(await stateOf('R-2')).toEqual(before);
  });

  test("a signup sent with another Host keeps the pass's webServiceURL (the service has no public URL of its own)", async () => {
    const passjson = async (): Promise<{ webServiceURL: string; authenticationToken: string }> =>
      (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/R-3/passjson`)).body as { webServiceURL: string; authenticationToken: string };
    const before = await passjson();
    const body = JSON.stringify({ personalizationToken: 'a1b2c3d4e5f6', requiredPersonalizationInfo: { fullName: 'Mallory' } });
    const { port } = new URL(service.url);
    // fetch cannot send another Host: raw HTTP on the same connection the service listens on.
    const status = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
      socket.write(
        `POST /wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/R-3/personalize HTTP/1.1\r\nHost: attacker.example\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    expect(status).toBe('HTTP/1.1 200 OK');
    const after = await passjson();
    expect(after.webServiceURL).toBe(before.webServiceURL);
    expect(after.webServiceURL.startsWith(service.url)).toBe(true);
    expect(after.authenticationToken).toBe(before.authenticationToken);
  });
});
