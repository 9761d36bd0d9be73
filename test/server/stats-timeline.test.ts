// The console's figures and a pass's timeline, through a pass's life on a real service (both engines):
// made, downloaded, saved to Apple Wallet on two devices and removed and saved again, changed (an APNs push
// to the stand-in), fetched by Wallet (200, then 304), delivered to a webhook; Google saves reported as
// their events. "added" counts a pass's first save per wallet, never a re-registration.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApnsClient, type ApnsClient } from '../../src/apns/client.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { addEvents } from '../../src/server/db/outbox.js';
import { createEvent } from '../../src/webhooks/event.js';
import { apnsPki } from '../apns/pki.js';
import { startApnsStandIn, type StandIn } from '../apns/stand-in.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { type Answer, openApiChecker, recordAnswers } from './openapi-check.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const SERIAL = 'T-1';

for (const engine of ENGINES) {
  describe(`stats and timeline on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let receiver: Receiver;
    let standIn: StandIn;
    let apns: ApnsClient;
    let templateId: number;
    let otherTemplateId: number;
    let pass: { webServiceURL: string; authenticationToken: string };
    const answers: Answer[] = [];

    beforeAll(async () => {
      const apnsKeys = apnsPki();
      standIn = await startApnsStandIn(apnsKeys, { answer: () => ({ status: 200 }) });
      apns = createApnsClient({ certificate: { cert: apnsKeys.passCertPem, key: apnsKeys.passKeyPem }, origin: standIn.origin, ca: apnsKeys.caPem });
      const pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      database = await engine.open();
      receiver = await startReceiver();
      service = recordAnswers(await startService(database, { apns, signer }), answers);
      const template = (name: string) => ({
        name,
        formatVersion: 1,
        passType: PASS_TYPE_IDENTIFIER,
        description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
        placeholder: ['n'],
      });
      templateId = (await service.call('POST', '/v1/templates', template('Members'))).body.id;
      otherTemplateId = (await service.call('POST', '/v1/templates', template('Other'))).body.id;
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/icon.png`, png(29, 29))).status).toBe(201);
      const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/hook` });
      receiver.secrets.set('/hook', [hook.body.secret]);
      await eventually(async () => (await service.call('GET', `/v1/webhooks/${hook.body.id}`)).body.state === 'enabled', 10_000, 'the webhook enabled');
    });

    afterAll(async () => {
      await service?.close();
      await apns?.close();
      await standIn?.close();
      await receiver?.close();
      await database?.dispose();
    });

    const device = (name: string, method: 'POST' | 'DELETE', pushToken = 'ab'.repeat(32)) =>
      fetch(`${pass.webServiceURL}/v1/devices/${name}/registrations/${PASS_TYPE_IDENTIFIER}/${SERIAL}`, {
        method,
        headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ pushToken }) } : {}),
      });
    const google = (type: 'registration.created' | 'registration.deleted') =>
      addEvents(database.db, [createEvent(type, { serialNumber: SERIAL, passTypeIdentifier: PASS_TYPE_IDENTIFIER, wallet: 'google', objectId: 'x.y' })]);

    test('a pass through its life: the counts per wallet and its timeline, newest first, paged', async () => {
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { n: 'one' }, serialNumber: SERIAL })).status).toBe(201);
      pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}/passjson`)).body;
      expect((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}/pkpass`)).status).toBe(200);

      // Apple: two devices, both removed, one back: one first save, one removal, one device now.
      expect((await device('device-a', 'POST')).status).toBe(201);
      expect((await device('device-a', 'POST')).status).toBe(200); // the same registration again: nothing new
      expect((await device('device-b', 'POST', 'cd'.repeat(32))).status).toBe(201);
      expect((await device('device-a', 'DELETE')).status).toBe(200);
      expect((await device('device-b', 'DELETE')).status).toBe(200);
      expect((await device('device-a', 'POST')).status).toBe(201);
      // Google: saved, removed, saved again.
      await google('registration.created');
      await google('registration.deleted');
      await google('registration.created');

      // A change: version 2, pushed to device-a's token; Wallet then fetches it (200), and again unchanged (304).
      expect((await service.call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}/values`, { n: 'two' })).status).toBe(200);
      await eventually(() => standIn.pushes.length >= 1, 10_000, 'the push');
      const fetched = await fetch(`${pass.webServiceURL}/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}`, {
        headers: { authorization: `ApplePass ${pass.authenticationToken}` },
      });
      expect(fetched.status).toBe(200);
      const again = await fetch(`${pass.webServiceURL}/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}`, {
        headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'if-modified-since': fetched.headers.get('last-modified')! },
      });
      expect(again.status).toBe(304);

      const stats = await service.call('GET', `/v1/stats?templateId=${templateId}&interval=hour`);
      expect(stats.status).toBe(200);
      expect(stats.body.interval).toBe('hour');
      expect(stats.body.points).toHaveLength(24);
      const total = (pick: (point: any) => number) => stats.body.points.reduce((sum: number, point: any) => sum + pick(point), 0);
      expect({
        passesMade: total((point) => point.passesMade),
        downloads: total((point) => point.downloads),
        added: { apple: total((point) => point.added.apple), google: total((point) => point.added.google) },
        removed: { apple: total((point) => point.removed.apple), google: total((point) => point.removed.google) },
        devices: stats.body.points.at(-1).devices,
      }).toEqual({ passesMade: 1, downloads: 1, added: { apple: 1, google: 1 }, removed: { apple: 1, google: 1 }, devices: { apple: 1, google: 1 } });
      // The other template saw none of it; by day, the same counts.
      const other = await service.call('GET', `/v1/stats?templateId=${otherTemplateId}&interval=hour`);
      expect(other.body.points.every((point: any) => point.passesMade === 0 && point.devices.apple === 0)).toBe(true);
      const daily = await service.call('GET', '/v1/stats');
      expect(daily.body.points).toHaveLength(30);
      expect(daily.body.points.at(-1).devices).toEqual({ apple: 1, google: 1 });
      expect(daily.body.points.reduce((sum: number, point: any) => sum + point.added.apple, 0)).toBe(1);

      const overview = await service.call('GET', '/v1/stats/overview');
      expect(overview.status).toBe(200);
      expect(overview.body.templates).toEqual([
        { id: templateId, name: 'Members', passes: 1 },
        { id: otherTemplateId, name: 'Other', passes: 0 },
      ]);
      expect(overview.body.today).toEqual({
        passesMade: 1,
        downloads: 1,
        added: { apple: 1, google: 1 },
        removed: { apple: 1, google: 1 },
        devices: { apple: 1, google: 1 },
      });
      expect(overview.body.certificates).toEqual([{ passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: 'A93A5CM278', notAfter: expect.any(String) }]);
      expect(Object.keys(overview.body.queue).sort()).toEqual(['dueDeliveries', 'googleSyncs', 'oldestDueSeconds', 'pushes']);

      // The timeline: every kind the pass went through, newest first (Wallet's fetches are written in the background,
      // deliveries as the receiver answers).
      const path = `/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}/timeline`;
      const kindsOf = async () => ((await service.call('GET', `${path}?limit=100`)).body.items as any[]).map((entry) => entry.kind);
      await eventually(
        async () => {
          const kinds = await kindsOf();
          return (
            kinds.filter((kind) => kind === 'fetched').length === 2 && kinds.includes('pushed') && kinds.filter((kind) => kind === 'delivered').length >= 9
          );
        },
        15_000,
        'fetches, the push and the deliveries on the timeline',
      );
      const { body } = await service.call('GET', `${path}?limit=100`);
      const entries = body.items as { at: string; kind: string; summary: string; detail: Record<string, unknown> }[];
      expect(body.next).toBeNull();
      const changes = entries.filter((entry) => !['delivered', 'fetched', 'pushed'].includes(entry.kind)).map((entry) => entry.kind);
      expect(changes).toEqual(['updated', 'added', 'removed', 'added', 'added', 'removed', 'removed', 'added', 'added', 'downloaded', 'created']);
      expect(entries.at(-1)).toMatchObject({ kind: 'created', summary: 'Made (version 1)', detail: { event: 'pass.created', version: expect.any(Number) } });
      expect(entries.find((entry) => entry.kind === 'updated')).toMatchObject({ detail: { version: 2 }, summary: 'Changed (now version 2)' });
      expect(entries.find((entry) => entry.kind === 'pushed')).toMatchObject({ detail: { outcome: 'sent' }, summary: 'APNs push sent to a device' });
      expect(entries.filter((entry) => entry.kind === 'fetched').map((entry) => entry.detail['status'])).toEqual([304, 200]);
      const delivered = entries.filter((entry) => entry.kind === 'delivered');
      expect(delivered.every((entry) => entry.detail['status'] === 'delivered' && entry.detail['httpStatus'] === 200)).toBe(true);
      expect(delivered.map((entry) => entry.detail['event'])).toContain('pass.updated');
      expect(entries.filter((entry) => entry.kind === 'added').map((entry) => entry.detail['wallet'])).toEqual(['google', 'google', 'apple', 'apple', 'apple']);
      const times = entries.map((entry) => Date.parse(entry.at));
      expect(times.every((time, index) => index === 0 || time <= times[index - 1]!)).toBe(true);

      // Paged: the same entries seven at a time, `cursor` continuing from `next`.
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: { items: { kind: string }[]; next: string | null } } = await service.call(
          'GET',
          `${path}?limit=7${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        expect(page.status).toBe(200);
        paged.push(...page.body.items.map((entry) => entry.kind));
        cursor = page.body.next;
      } while (cursor !== null);
      expect(paged).toEqual(entries.map((entry) => entry.kind));
    });

    test('a key limited to another template sees neither the pass’s timeline nor its template’s stats; bad queries are 400', async () => {
      const limited = await service.call('POST', '/v1/keys', { name: 'other only', scopes: ['read'], templateIds: [otherTemplateId] });
      expect(limited.status).toBe(201);
      const as = (path: string) => fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${limited.body.key}` } });
      const timeline = await as(`/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}/timeline`);
      expect([timeline.status, (await timeline.json()).code]).toEqual([404, 'pass-not-found']);
      const stats = await as(`/v1/stats?templateId=${templateId}`);
      expect([stats.status, (await stats.json()).code]).toEqual([404, 'template-not-found']);
      const all = await (await as('/v1/stats?interval=hour')).json();
      expect(all.points.reduce((sum: number, point: any) => sum + point.passesMade, 0)).toBe(0);
      const overview = await (await as('/v1/stats/overview')).json();
      expect(overview.templates.map((template: { id: number }) => template.id)).toEqual([otherTemplateId]);

      for (const query of [
        'interval=hour&from=2025-01-01&to=2025-03-01',
        'from=2024-01-01&to=2025-06-01',
        'interval=week',
        'from=yesterday',
        'from=2026-02-30&to=2026-03-05',
        'from=2026-03-01T00:00:00Z&to=2026-04-31T00:00:00Z',
        'templateId=abc',
        'from=2025-03-02&to=2025-03-01',
        'colour=blue',
      ]) {
        const refused = await service.call('GET', `/v1/stats?${query}`);
        expect([query, refused.status, refused.body.code]).toEqual([query, 400, 'invalid-query']);
      }
      const missing = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/nope/timeline`);
      expect([missing.status, missing.body.code]).toEqual([404, 'pass-not-found']);
      const badCursor = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}/timeline?cursor=x`);
      expect([badCursor.status, badCursor.body.code]).toEqual([400, 'invalid-query']);
    });

    test('a message to holders and a void are on the timeline', async () => {
      const club = await service.call('POST', '/v1/templates', {
        name: 'Club',
        formatVersion: 1,
        passType: PASS_TYPE_IDENTIFIER,
        description: {
          generic: { primaryFields: [{ key: 'n', value: '${n}' }], backFields: [{ key: 'news', label: '${title}', value: '${news}', changeMessage: '%@' }] },
        },
        placeholder: ['n', 'news', 'title'],
      });
      expect(club.status).toBe(201);
      expect(
        (await service.call('POST', `/v1/templates/${club.body.id}/passes`, { values: { n: 'x', news: '-', title: '-' }, serialNumber: 'C-1' })).status,
      ).toBe(201);
      const sent = await service.call('POST', `/v1/templates/${club.body.id}/messages`, { header: 'Pool', body: 'Closed on Monday.' });
      expect(sent.status).toBe(202);
      await eventually(async () => (await service.call('GET', `/v1/jobs/${sent.body.job.id}`)).body.state === 'succeeded', 15_000, 'the message job');
      expect((await service.call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/C-1/void`)).status).toBeLessThan(300);
      const { body } = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/C-1/timeline`);
      const entries = (body.items as { kind: string; summary: string; detail: Record<string, unknown> }[]).filter((entry) => entry.kind !== 'delivered');
      expect(entries.map((entry) => entry.kind)).toEqual(['voided', 'message', 'updated', 'created']);
      expect(entries[1]).toMatchObject({ summary: 'Message: Pool', detail: { header: 'Pool', body: 'Closed on Monday.' } });
    });

    test('a Google Wallet object brought up to date is on its pass’s timeline (the sync job’s done catching up)', async () => {
      const [job] = await database.db.query<{ id: number }>(
        `insert into passmint_google_jobs (kind, pass_type_identifier, serial_number, wanted, done) values ('object', $1, $2, 2, 0) returning id`,
        [PASS_TYPE_IDENTIFIER, SERIAL],
      );
      await database.db.query('update passmint_google_jobs set attempts = 1, last_error = $2 where id = $1', [job!.id, 'HTTP 503']); // a retry: not an entry
      await database.db.query('update passmint_google_jobs set done = 1, attempts = 0, last_error = null where id = $1', [job!.id]);
      await database.db.query('update passmint_google_jobs set done = 2, last_error = $2 where id = $1', [job!.id, 'HTTP 400: bad barcode']);
      const { body } = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}/timeline?limit=2`);
      expect(body.items.map((entry: { kind: string; summary: string; detail: object }) => [entry.kind, entry.summary, entry.detail])).toEqual([
        ['google-synced', 'Google Wallet refused the change: HTTP 400: bad barcode', { ok: false, error: 'HTTP 400: bad barcode' }],
        ['google-synced', 'Synced to Google Wallet', { ok: true }],
      ]);
      await database.db.query('delete from passmint_google_jobs where id = $1', [job!.id]);
    });

    test('every answer above validates against the OpenAPI document', async () => {
      const check = await openApiChecker(service.url);
      const checked = answers.filter((answer) => /\/v1\/(stats|passes\/[^/]+\/[^/]+\/timeline)/.test(answer.path));
      expect(checked.length).toBeGreaterThan(10);
      expect(checked.map(check).filter((problem) => problem !== undefined)).toEqual([]);
    });

    test('deleting a pass takes its devices out of the counts and its timeline with it', async () => {
      expect((await service.call('DELETE', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${SERIAL}`)).status).toBe(204);
      const overview = await service.call('GET', '/v1/stats/overview');
      expect(overview.body.templates[0]).toEqual({ id: templateId, name: 'Members', passes: 0 });
      expect(overview.body.today.devices).toEqual({ apple: 0, google: 0 });
      const rows = await database.db.query('select 1 from passmint_timeline where serial_number = $1', [SERIAL]);
      expect(rows).toEqual([]);
    });
  });
}
