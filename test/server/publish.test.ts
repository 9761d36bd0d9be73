// Publishing a template (POST /v1/templates/{id}/publish) over real HTTP on
// both engines: the dry run, the job's counts and results, new versions only
// where the rendered pass changed, Apple's web service listing exactly the
// changed serials and serving the new pass, pushes to APNs (the stand-in),
// passes whose values no longer render, and the template's versions.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApnsClient, type ApnsClient } from '../../src/apns/client.js';
import { readPass } from '../../src/pkpass/read.js';
import { apnsPki, PASS_TYPE_IDENTIFIER as PASS_TYPE } from '../apns/pki.js';
import { startApnsStandIn, type StandIn } from '../apns/stand-in.js';
import { png } from '../pkpass/helpers.js';
import { signer } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

const template = (label: string, extra: Record<string, unknown>[] = [], placeholders: string[] = []) => ({
  name: 'Member card',
  formatVersion: 1,
  passType: PASS_TYPE,
  description: {
    generic: {
      primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }],
      secondaryFields: [{ key: 'tier', label, value: '${tier}' }, ...extra],
    },
  },
  placeholder: ['name', 'tier', ...placeholders],
});

interface ResultLine {
  row: number;
  status: string;
  serialNumber: string;
  problem?: { code: string };
}

for (const engine of ENGINES) {
  describe(`publish on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let standIn: StandIn;
    let apns: ApnsClient;
    let templateId: number;
    const token = 'ab'.repeat(32);

    beforeAll(async () => {
      const pki = apnsPki();
      [database, standIn] = await Promise.all([engine.open(), startApnsStandIn(pki)]);
      apns = createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.passKeyPem }, origin: standIn.origin, ca: pki.caPem });
      service = await startService(database, { signer: await signer(), apns, issuer: { organizationName: 'Example' } });
      templateId = (await service.call('POST', '/v1/templates', template('Tier'))).body.id;
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/icon.png`, png(29, 29))).status).toBe(201);
    });

    afterAll(async () => {
      await service?.close();
      await apns?.close();
      await standIn?.close();
      await database?.dispose();
    });

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
    const results = async (id: string): Promise<ResultLine[]> => {
      const answer = await fetch(`${service.url}/v1/jobs/${id}/results`, { headers: { authorization: `Bearer ${service.key}` } });
      return (await answer.text())
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as ResultLine);
    };
    const pass = async (serial: string): Promise<any> => (await service.call('GET', `/v1/passes/${PASS_TYPE}/${serial}`)).body;
    const passJson = async (serial: string): Promise<any> => (await service.call('GET', `/v1/passes/${PASS_TYPE}/${serial}/passjson`)).body;
    const create = async (serial: string, values: Record<string, string>): Promise<void> => {
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values, serialNumber: serial })).status).toBe(201);
    };
    const versions = async (): Promise<Record<string, number>> => {
      const rows = await database.db.query<{ serial_number: string; version: number }>('select serial_number, version from passmint_passes order by seq');
      return Object.fromEntries(rows.map((row) => [row.serial_number, row.version]));
    };
    const updatedEvents = async (): Promise<number> =>
      (await database.db.query<{ n: number }>("select count(*)::int as n from passmint_events where type = 'pass.updated'"))[0]!.n;

    test('a template change reaches exactly the passes it changes: dry run, job, web service list, new pass, pushes; twice is nothing', async () => {
      await create('P-1', { name: 'Ada', tier: 'gold' });
      await create('P-2', { name: 'Grace', tier: 'silver' });
      await create('P-3', { name: 'Edsger', tier: 'bronze' });
      // The template changes; P-4 and P-5 are made after, so they render the same at the new version.
      expect((await service.call('PUT', `/v1/templates/${templateId}`, template('Level'))).status).toBe(200);
      await create('P-4', { name: 'Alan', tier: 'gold' });
      await create('P-5', { name: 'Barbara', tier: 'silver' });
      const { authenticationToken, webServiceURL } = await passJson('P-1');
      for (const serial of ['P-1', 'P-4']) {
        const registered = await fetch(`${webServiceURL}/v1/devices/device-a/registrations/${PASS_TYPE}/${serial}`, {
          method: 'POST',
          headers: { authorization: `ApplePass ${(await passJson(serial)).authenticationToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pushToken: token }),
        });
        expect(registered.status).toBe(201);
      }
      const before = await (await fetch(`${webServiceURL}/v1/devices/device-a/registrations/${PASS_TYPE}`)).json();
      expect(before.serialNumbers.sort()).toEqual(['P-1', 'P-4']);
      const tag = before.lastUpdated as string;
      const current = await versions();
      const templateVersion = (await pass('P-4')).templateVersion as number;
      expect((await pass('P-1')).templateVersion).toBe(templateVersion - 1);

      // Dry run: the counts and one example, nothing written.
      const dry = await service.call('POST', `/v1/templates/${templateId}/publish?dryRun=true`);
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({ passes: 5, changed: 3, unchanged: 2, failed: 0, sampled: 5, estimated: false, failures: [] });
      expect(dry.body.example.serialNumber).toBe('P-1');
      expect(dry.body.example.before.generic.secondaryFields[0].label).toBe('Tier');
      expect(dry.body.example.after.generic.secondaryFields[0].label).toBe('Level');
      expect(await versions()).toEqual(current);
      expect((await pass('P-1')).templateVersion).toBe(templateVersion - 1);

      const events = await updatedEvents();
      const answer = await service.call('POST', `/v1/templates/${templateId}/publish`);
      expect(answer.status).toBe(202);
      expect(answer.headers.get('location')).toBe(`${service.url}/v1/jobs/${answer.body.id}`);
      expect(answer.body).toMatchObject({ kind: 'publish', templateId, rows: 5 });
      const job = await finished(answer.body.id);
      expect(job).toMatchObject({ state: 'succeeded', rows: 5, changed: 3, updated: 3, unchanged: 2, failed: 0, error: null });
      expect(await results(answer.body.id)).toEqual([
        { row: 1, status: 'changed', serialNumber: 'P-1' },
        { row: 2, status: 'changed', serialNumber: 'P-2' },
        { row: 3, status: 'changed', serialNumber: 'P-3' },
        { row: 4, status: 'unchanged', serialNumber: 'P-4' },
        { row: 5, status: 'unchanged', serialNumber: 'P-5' },
      ]);
      expect(await versions()).toEqual({ 'P-1': 2, 'P-2': 2, 'P-3': 2, 'P-4': 1, 'P-5': 1 });
      expect(await updatedEvents()).toBe(events + 3);
      for (const serial of ['P-1', 'P-2', 'P-3', 'P-4', 'P-5']) expect((await pass(serial)).templateVersion).toBe(templateVersion);

      // Apple's web service: the device lists exactly its changed serial, and fetches the new pass.
      const changed = await (await fetch(`${webServiceURL}/v1/devices/device-a/registrations/${PASS_TYPE}?passesUpdatedSince=${tag}`)).json();
      expect(changed.serialNumbers).toEqual(['P-1']);
      const fetched = await fetch(`${webServiceURL}/v1/passes/${PASS_TYPE}/P-1`, { headers: { authorization: `ApplePass ${authenticationToken}` } });
      expect(fetched.status).toBe(200);
      const { pass: fetchedPass } = await readPass(new Uint8Array(await fetched.arrayBuffer()));
      expect((fetchedPass['generic'] as any).secondaryFields[0]).toEqual({ key: 'tier', label: 'Level', value: 'gold' });
      // One push to the device, for its changed pass (P-4 did not change).
      await eventually(() => standIn.pushes.length >= 1, 10_000, 'the push');
      expect(standIn.pushes.map((push) => push.pushToken)).toEqual([token]);

      // Twice: nothing changed, no version, no event, the device's list stays empty after the last tag.
      const again = await finished((await service.call('POST', `/v1/templates/${templateId}/publish`)).body.id);
      expect(again).toMatchObject({ state: 'succeeded', changed: 0, unchanged: 5, failed: 0 });
      expect(await versions()).toEqual({ 'P-1': 2, 'P-2': 2, 'P-3': 2, 'P-4': 1, 'P-5': 1 });
      expect(await updatedEvents()).toBe(events + 3);
      expect((await fetch(`${webServiceURL}/v1/devices/device-a/registrations/${PASS_TYPE}?passesUpdatedSince=${changed.lastUpdated}`)).status).toBe(204);

      // The versions: the current one holds all five passes.
      const listed = await service.call('GET', `/v1/templates/${templateId}/versions`);
      expect(listed.status).toBe(200);
      expect(listed.body.version).toBe(templateVersion);
      expect(listed.body.versions[0]).toMatchObject({ version: templateVersion, passes: 5, filesChanged: false, keyId: expect.any(String) });
      expect(listed.body.versions.map((entry: any) => entry.version)).toEqual(Array.from({ length: templateVersion }, (_, i) => templateVersion - i));
      // Version 2 was the icon's upload: only files changed.
      expect(listed.body.versions.at(-2)).toMatchObject({ version: 2, filesChanged: true, passes: 0 });
      expect(listed.body.unversioned).toBe(0);
    });

    test('a new file reaches every pass; values that no longer render keep their version and are named in the results', async () => {
      // Only an image changed: pass.json renders the same, the package does not — every pass gets a version.
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/logo.png`, png(160, 50))).status).toBe(201);
      const images = await finished((await service.call('POST', `/v1/templates/${templateId}/publish`)).body.id);
      expect(images).toMatchObject({ changed: 5, unchanged: 0, failed: 0 });
      expect(await versions()).toEqual({ 'P-1': 3, 'P-2': 3, 'P-3': 3, 'P-4': 2, 'P-5': 2 });

      // A new placeholder without a value in any pass but P-5.
      expect((await service.call('PUT', `/v1/passes/${PASS_TYPE}/P-5/values`, { name: 'Barbara', tier: 'silver', since: '2020' })).status).toBe(200);
      const since = template('Level', [{ key: 'since', label: 'Since', value: '${since}' }], ['since']);
      expect((await service.call('PUT', `/v1/templates/${templateId}`, since)).status).toBe(200);
      const dry = await service.call('POST', `/v1/templates/${templateId}/publish?dryRun=true`);
      expect(dry.body).toMatchObject({ passes: 5, changed: 1, unchanged: 0, failed: 4 });
      expect(dry.body.failures.map((failure: any) => [failure.serialNumber, failure.problem.code])).toEqual([
        ['P-1', 'invalid-values'],
        ['P-2', 'invalid-values'],
        ['P-3', 'invalid-values'],
        ['P-4', 'invalid-values'],
      ]);
      const answer = await service.call('POST', `/v1/templates/${templateId}/publish`);
      const job = await finished(answer.body.id);
      expect(job).toMatchObject({ state: 'succeeded', changed: 1, unchanged: 0, failed: 4 });
      const lines = await results(answer.body.id);
      expect(lines.map((line) => [line.serialNumber, line.status, line.problem?.code])).toEqual([
        ['P-1', 'failed', 'invalid-values'],
        ['P-2', 'failed', 'invalid-values'],
        ['P-3', 'failed', 'invalid-values'],
        ['P-4', 'failed', 'invalid-values'],
        ['P-5', 'changed', undefined],
      ]);
      expect(await versions()).toEqual({ 'P-1': 3, 'P-2': 3, 'P-3': 3, 'P-4': 2, 'P-5': 4 });
      expect((await passJson('P-5')).generic.secondaryFields[1]).toEqual({ key: 'since', label: 'Since', value: '2020' });
    });

    test('refusals: a bad dryRun, another parameter, no template', async () => {
      const bad = await service.call('POST', `/v1/templates/${templateId}/publish?dryRun=yes`);
      expect([bad.status, bad.body.code]).toEqual([400, 'invalid-query']);
      const other = await service.call('POST', `/v1/templates/${templateId}/publish?mode=all`);
      expect([other.status, other.body.code]).toEqual([400, 'invalid-query']);
      const missing = await service.call('POST', '/v1/templates/999999/publish');
      expect([missing.status, missing.body.code]).toEqual([404, 'template-not-found']);
      expect((await service.call('GET', '/v1/templates/999999/versions')).status).toBe(404);
    });
  });
}
