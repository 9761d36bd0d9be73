// A pass's lifecycle over real HTTP on both engines: void (pass.json
// `voided`, a new version the device's changed list shows, INACTIVE at the
// Google stand-in, final: 409 pass-voided), expire (`expirationDate`, EXPIRED
// at Google, kept across a change of values), reactivate, and the bulk void
// job by the list's filters.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { testServiceAccount } from '../google/keys.js';
import { startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

const ISSUER = '3388000000012345678';
const PASS_TYPE = 'pass.com.example.member';

for (const engine of ENGINES) {
  describe(`pass lifecycle on ${engine.name}`, () => {
    const account = testServiceAccount();
    let database: TestDatabase;
    let standIn: GoogleStandIn;
    let service: Service;
    let templateId: number;

    const objectOf = (serial: string): Record<string, unknown> | undefined =>
      standIn.store.get('genericObject')?.get(`${ISSUER}.pass_2ecom_2eexample_2emember.${serial}`);
    const googleState = async (serial: string, state: string): Promise<void> =>
      eventually(() => objectOf(serial)?.['state'] === state, 10_000, `${serial} ${state} at Google`);
    const call = (method: string, serial: string, action = ''): ReturnType<Service['call']> =>
      service.call(method, `/v1/passes/${PASS_TYPE}/${serial}${action === '' ? '' : `/${action}`}`);
    const create = async (serial: string, tier = 'gold'): Promise<void> => {
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: serial, tier }, serialNumber: serial })).status).toBe(201);
    };
    const events = async (type: string): Promise<string[]> =>
      (
        await database.db.query<{ serial: string }>("select body::json->'data'->>'serialNumber' as serial from passmint_events where type = $1 order by seq", [
          type,
        ])
      ).map((row) => row.serial);
    const finished = async (id: string): Promise<any> => {
      let job: any;
      await eventually(
        async () => {
          job = (await service.call('GET', `/v1/jobs/${id}`)).body;
          return job.finishedAt !== null;
        },
        20_000,
        `job ${id} to end`,
      );
      return job;
    };

    beforeAll(async () => {
      [database, standIn] = await Promise.all([engine.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
      service = await startService(database, {
        issuer: { teamIdentifier: 'A93A5CM278', organizationName: 'Example' },
        google: { credentials: readGoogleCredentials(account.json), issuerId: ISSUER, apiUrl: standIn.apiUrl, tokenUrl: standIn.tokenUrl },
      });
      const { body } = await service.call('POST', '/v1/templates', {
        name: 'Member',
        formatVersion: 1,
        passType: PASS_TYPE,
        description: { generic: { primaryFields: [{ key: 'name', label: 'Name', value: '${name}' }], secondaryFields: [{ key: 'tier', value: '${tier}' }] } },
        placeholder: ['name', 'tier'],
      });
      templateId = body.id;
    });

    afterAll(async () => {
      await service?.close();
      await standIn?.close();
      await database?.dispose();
    });

    test('void: pass.json voided, a new version in the device list, INACTIVE at Google; final (409 pass-voided)', async () => {
      await create('L-1');
      await googleState('L-1', 'ACTIVE');
      const { authenticationToken } = (await call('GET', 'L-1', 'passjson')).body;
      const wallet = `${service.url}/wallet/v1/devices/device-l/registrations/${PASS_TYPE}`;
      const registered = await fetch(`${wallet}/L-1`, {
        method: 'POST',
        headers: { authorization: `ApplePass ${authenticationToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pushToken: 'cd'.repeat(32) }),
      });
      expect(registered.status).toBe(201);
      const { lastUpdated } = await (await fetch(wallet)).json();
      expect((await fetch(`${wallet}?passesUpdatedSince=${lastUpdated}`)).status).toBe(204);
      expect((await call('GET', 'L-1')).body).toMatchObject({ state: 'active', version: 1 });

      const voided = await call('POST', 'L-1', 'void');
      expect(voided.status).toBe(200);
      expect(voided.body).toMatchObject({ state: 'voided', version: 2, values: { name: 'L-1', tier: 'gold' } });
      expect((await call('GET', 'L-1', 'passjson')).body.voided).toBe(true);
      expect((await (await fetch(`${wallet}?passesUpdatedSince=${lastUpdated}`)).json()).serialNumbers).toEqual(['L-1']);
      await googleState('L-1', 'INACTIVE');
      expect(await events('pass.voided')).toEqual(['L-1']);

      const put = await service.call('PUT', `/v1/passes/${PASS_TYPE}/L-1/values`, { name: 'X', tier: 'silver' });
      expect([put.status, put.body.code]).toEqual([409, 'pass-voided']);
      expect((await call('POST', 'L-1', 'expire')).body.code).toBe('pass-voided');
      expect((await call('POST', 'L-1', 'reactivate')).status).toBe(409);
      // Voiding again changes nothing.
      expect((await call('POST', 'L-1', 'void')).body).toMatchObject({ state: 'voided', version: 2 });
      expect(await events('pass.voided')).toEqual(['L-1']);
      expect((await call('GET', 'L-1')).body).toMatchObject({ state: 'voided', version: 2, values: { name: 'L-1', tier: 'gold' } });
      expect((await call('POST', 'NOPE', 'void')).body.code).toBe('pass-not-found');
    });

    test('expire sets expirationDate (EXPIRED at Google), kept across a change of values; reactivate makes it valid again', async () => {
      await create('L-2');
      const before = Date.now() - 1000;
      const expired = await call('POST', 'L-2', 'expire');
      expect(expired.body).toMatchObject({ state: 'expired', version: 2 });
      const { expirationDate } = (await call('GET', 'L-2', 'passjson')).body;
      expect(expirationDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(Date.parse(expirationDate)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(expirationDate)).toBeLessThanOrEqual(Date.now());
      await googleState('L-2', 'EXPIRED');

      expect((await service.call('PUT', `/v1/passes/${PASS_TYPE}/L-2/values`, { name: 'Renamed', tier: 'gold' })).body).toMatchObject({
        state: 'expired',
        version: 3,
      });
      const changed = (await call('GET', 'L-2', 'passjson')).body;
      expect([changed.expirationDate, changed.generic.primaryFields[0].value]).toEqual([expirationDate, 'Renamed']);

      const reactivated = await call('POST', 'L-2', 'reactivate');
      expect(reactivated.body).toMatchObject({ state: 'active', version: 4 });
      expect((await call('GET', 'L-2', 'passjson')).body.expirationDate).toBeUndefined();
      await googleState('L-2', 'ACTIVE');
      // Active already: nothing to do.
      expect((await call('POST', 'L-2', 'reactivate')).body).toMatchObject({ state: 'active', version: 4 });
      expect([await events('pass.expired'), await events('pass.reactivated')]).toEqual([['L-2'], ['L-2']]);
    });

    test('bulk void by the list filters: a job, each matching pass once, the voided ones unchanged', async () => {
      for (const [serial, tier] of [
        ['B-1', 'gold'],
        ['B-2', 'silver'],
        ['B-3', 'gold'],
        ['B-4', 'silver'],
        ['B-5', 'gold'],
      ] as const)
        await create(serial, tier);
      expect((await call('POST', 'B-3', 'void')).status).toBe(200);
      // Gold passes: L-1 (voided), L-2, B-1, B-3 (voided), B-5.
      const answer = await service.call('POST', `/v1/templates/${templateId}/passes/void?values.tier=gold`);
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ kind: 'void', templateId, rows: 5 });
      const job = await finished(answer.body.id);
      expect(job).toMatchObject({ state: 'succeeded', changed: 3, unchanged: 2, failed: 0 });
      const lines = (await (await fetch(`${service.url}/v1/jobs/${answer.body.id}/results`, { headers: { authorization: `Bearer ${service.key}` } })).text())
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => [line.serialNumber, line.status])).toEqual([
        ['L-1', 'unchanged'],
        ['L-2', 'voided'],
        ['B-1', 'voided'],
        ['B-3', 'unchanged'],
        ['B-5', 'voided'],
      ]);
      const states = await database.db.query<{ serial_number: string; state: string }>(
        "select serial_number, state from passmint_passes where serial_number like 'B-%' order by seq",
      );
      expect(states.map((row) => row.state)).toEqual(['voided', 'active', 'voided', 'active', 'voided']);
      expect((await events('pass.voided')).sort()).toEqual(['B-1', 'B-3', 'B-5', 'L-1', 'L-2']);
      await googleState('B-5', 'INACTIVE');

      for (const query of ['values.nope=1', `templateId=${templateId}`, 'limit=5', 'colour=red']) {
        const refused = await service.call('POST', `/v1/templates/${templateId}/passes/void?${query}`);
        expect([refused.status, refused.body.code]).toEqual([400, 'invalid-query']);
      }
      expect((await service.call('POST', '/v1/templates/999999/passes/void')).status).toBe(404);
    });

    test('an import in upsert mode leaves a voided pass as it is (pass-voided in its results) and keeps an expired one expired', async () => {
      await create('L-7');
      await create('L-8');
      expect((await call('POST', 'L-7', 'void')).status).toBe(200);
      expect((await call('POST', 'L-8', 'expire')).status).toBe(200);
      const { expirationDate } = (await call('GET', 'L-8', 'passjson')).body;
      const csv = 'serialNumber,name,tier\nL-7,Changed,gold\nL-8,Changed,gold\n';
      const started = await service.call('POST', `/v1/templates/${templateId}/imports?mode=upsert`, csv, { 'content-type': 'text/csv' });
      expect(started.status).toBe(202);
      expect(await finished(started.body.id)).toMatchObject({ state: 'succeeded', updated: 1, failed: 1 });
      const answer = await fetch(`${service.url}/v1/jobs/${started.body.id}/results`, { headers: { authorization: `Bearer ${service.key}` } });
      const results = (await answer.text())
        .trim()
        .split('\n')
        .map((line: string) => JSON.parse(line));
      expect(results.map((result: any) => [result.serialNumber, result.status, result.problem?.code ?? null])).toEqual([
        ['L-7', 'failed', 'pass-voided'],
        ['L-8', 'updated', null],
      ]);
      expect((await call('GET', 'L-7', 'passjson')).body.generic.primaryFields[0].value).toBe('L-7');
      const expired = (await call('GET', 'L-8', 'passjson')).body;
      expect([expired.expirationDate, expired.generic.primaryFields[0].value]).toEqual([expirationDate, 'Changed']);
      expect((await call('GET', 'L-8')).body.state).toBe('expired');
    });
  });
}
