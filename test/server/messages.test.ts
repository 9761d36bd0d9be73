// Messages to holders over real HTTP, on both engines, with the APNs and
// Google Wallet stand-ins: the text reaches every pass's field marked for
// messages (a new version, a push, the device's changed list), each Google
// object gets it as TEXT_AND_NOTIFY within Google's three a day and as TEXT
// after (the 202 says which), the history lists them; a template without a
// `%@` field is a 422 that says how to add one.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApnsClient, type ApnsClient } from '../../src/apns/client.js';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { apnsPki, PASS_TYPE_IDENTIFIER } from '../apns/pki.js';
import { startApnsStandIn, type StandIn } from '../apns/stand-in.js';
import { testServiceAccount } from '../google/keys.js';
import { startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer, type AnswerCheck } from './openapi-check.js';
import { eventually } from './receiver.js';

const ISSUER = '3388000000012345678';
const SERIALS = ['M-1', 'M-2', 'M-3'];

for (const engine of ENGINES) {
  describe(`messages to holders on ${engine.name}`, () => {
    const account = testServiceAccount();
    let database: TestDatabase;
    let apnsStandIn: StandIn;
    let apns: ApnsClient;
    let google: GoogleStandIn;
    let service: Service;
    let check: AnswerCheck;
    const answers: Answer[] = [];
    let templateId: number;

    const objectId = (serial: string): string => `${ISSUER}.${PASS_TYPE_IDENTIFIER.replaceAll('.', '_2e')}.${serial}`;
    const messagesTo = (serial: string): any[] =>
      google.requests
        .filter((request) => request.method === 'POST' && request.path.endsWith(`/${objectId(serial)}/addMessage`))
        .map((request) => JSON.parse(request.body).message);
    const googleIdle = async (): Promise<boolean> =>
      (await database.db.query<{ n: number }>(`select count(*)::int as n from passmint_google_jobs where wanted > done`))[0]!.n === 0 &&
      (await database.db.query<{ n: number }>(`select count(*)::int as n from passmint_google_messages where status = 'queued'`))[0]!.n === 0;
    const jobDone = async (id: string): Promise<any> => {
      let job: any;
      await eventually(
        async () => {
          job = (await service.call('GET', `/v1/jobs/${id}`)).body;
          return job.state === 'succeeded' || job.state === 'failed';
        },
        20_000,
        `job ${id}`,
      );
      return job;
    };

    beforeAll(async () => {
      const pki = apnsPki();
      [database, apnsStandIn, google] = await Promise.all([
        engine.open(),
        startApnsStandIn(pki),
        startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail }),
      ]);
      apns = createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.passKeyPem }, origin: apnsStandIn.origin, ca: pki.caPem });
      service = await startService(database, {
        apns,
        issuer: { teamIdentifier: 'A93A5CM278', organizationName: 'Example Club' },
        google: { credentials: readGoogleCredentials(account.json), issuerId: ISSUER, apiUrl: google.apiUrl, tokenUrl: google.tokenUrl },
      });
      check = await openApiChecker(service.url);
      service = recordAnswers(service, answers);
      const { body: template } = await service.call('POST', '/v1/templates', {
        name: 'Member',
        formatVersion: 1,
        passType: PASS_TYPE_IDENTIFIER,
        description: {
          generic: {
            primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }],
            backFields: [{ key: 'news', label: '${newsTitle}', value: '${news}', changeMessage: '%@' }],
          },
        },
        placeholder: ['name', 'news', 'newsTitle'],
      });
      templateId = template.id;
    });

    afterAll(async () => {
      await service?.close();
      await apns?.close();
      await apnsStandIn?.close();
      await google?.close();
      await database?.dispose();
    });

    test('a message reaches every pass: its field, a new version, a push, the changed list, and Google as TEXT_AND_NOTIFY', async () => {
      const tokens: Record<string, string> = {};
      for (const [index, serial] of SERIALS.entries()) {
        const made = await service.call('POST', `/v1/templates/${templateId}/passes`, {
          values: { name: `Holder ${index}`, news: 'Welcome', newsTitle: 'News' },
          serialNumber: serial,
        });
        expect(made.status).toBe(201);
        const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}/passjson`)).body;
        tokens[serial] = `${String(index + 1).repeat(2)}`.repeat(32);
        const registered = await fetch(`${pass.webServiceURL}/v1/devices/device-${serial}/registrations/${PASS_TYPE_IDENTIFIER}/${serial}`, {
          method: 'POST',
          headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pushToken: tokens[serial] }),
        });
        expect(registered.status).toBe(201);
      }
      await eventually(googleIdle, 20_000, 'the objects at Google');
      const before = await fetch(`${service.url}/wallet/v1/devices/device-M-1/registrations/${PASS_TYPE_IDENTIFIER}`);
      const tag = (await before.json()).lastUpdated;

      const sent = await service.call('POST', `/v1/templates/${templateId}/messages`, { header: 'Pool', body: 'The pool is closed on Monday.' });
      expect(sent.status).toBe(202);
      expect(sent.body).toMatchObject({
        templateId,
        header: 'Pool',
        field: 'news',
        passes: 3,
        google: { notify: 3, text: 0 },
        job: { kind: 'message', rows: 3 },
      });
      expect(sent.headers.get('location')).toBe(`${service.url}/v1/jobs/${sent.body.job.id}`);
      expect(await jobDone(sent.body.job.id)).toMatchObject({ state: 'succeeded', rows: 3, updated: 3, unchanged: 0, failed: 0 });

      for (const serial of SERIALS) {
        const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}/passjson`)).body;
        expect(pass.generic.backFields).toEqual([{ key: 'news', label: 'Pool', value: 'The pool is closed on Monday.', changeMessage: '%@' }]);
        expect((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}`)).body).toMatchObject({ version: 2 });
      }
      await eventually(() => SERIALS.every((serial) => apnsStandIn.pushes.some((push) => push.pushToken === tokens[serial])), 20_000, 'a push per pass');
      expect(apnsStandIn.pushes.every((push) => push.headers['apns-topic'] === PASS_TYPE_IDENTIFIER)).toBe(true);
      const changed = await (await fetch(`${service.url}/wallet/v1/devices/device-M-1/registrations/${PASS_TYPE_IDENTIFIER}?passesUpdatedSince=${tag}`)).json();
      expect(changed.serialNumbers).toEqual(['M-1']);

      await eventually(googleIdle, 20_000, 'the messages at Google');
      for (const serial of SERIALS) {
        // The holder message only: the field's own change message is that message, not a second one.
        expect(messagesTo(serial)).toEqual([
          expect.objectContaining({ header: 'Pool', body: 'The pool is closed on Monday.', messageType: 'TEXT_AND_NOTIFY' }),
        ]);
        expect(JSON.stringify(google.store.get('genericObject')?.get(objectId(serial)))).toContain('The pool is closed on Monday.');
      }
      // The same text again changes nothing on Apple (no version): unchanged.
      const again = await service.call('POST', `/v1/templates/${templateId}/messages`, {
        header: 'Pool',
        body: 'The pool is closed on Monday.',
        filter: { serialNumber: 'M-3' },
      });
      expect(again.body.passes).toBe(1);
      expect(await jobDone(again.body.job.id)).toMatchObject({ state: 'succeeded', rows: 1, updated: 0, unchanged: 1 });
    });

    test("Google's three notifications a day: the fourth message to a pass is TEXT, and the 202 says so", async () => {
      // M-1 had one notification; two more fill its day.
      for (const body of ['Open until 22:00 today.', 'Sauna closed on Tuesday.']) {
        const sent = await service.call('POST', `/v1/templates/${templateId}/messages`, { header: 'Club', body, filter: { serialNumber: 'M-1' } });
        expect(sent.body).toMatchObject({ passes: 1, google: { notify: 1, text: 0 } });
        await jobDone(sent.body.job.id);
      }
      // Every pass of the template: M-1 has had its three (counted while still queued), M-2 and M-3 one each.
      const fourth = await service.call('POST', `/v1/templates/${templateId}/messages`, { header: 'Club', body: 'New classes from March.' });
      expect(fourth.body).toMatchObject({ passes: 3, google: { notify: 2, text: 1 } });
      await jobDone(fourth.body.job.id);
      await eventually(googleIdle, 20_000, 'the messages at Google');
      expect(messagesTo('M-1').map((message) => [message.body, message.messageType])).toEqual([
        ['The pool is closed on Monday.', 'TEXT_AND_NOTIFY'],
        ['Open until 22:00 today.', 'TEXT_AND_NOTIFY'],
        ['Sauna closed on Tuesday.', 'TEXT_AND_NOTIFY'],
        ['New classes from March.', 'TEXT'],
      ]);
      expect(messagesTo('M-2').map((message) => message.messageType)).toEqual(['TEXT_AND_NOTIFY', 'TEXT_AND_NOTIFY']);
      const rows = await database.db.query<{ status: string; n: number }>(
        `select status, count(*)::int as n from passmint_google_messages where object_id = $1 group by status order by status`,
        [objectId('M-1')],
      );
      expect(rows).toEqual([
        { status: 'sent', n: 3 },
        { status: 'text', n: 1 },
      ]);

      const history = await service.call('GET', `/v1/templates/${templateId}/messages`);
      expect(history.status).toBe(200);
      expect(history.body.items.map((item: any) => [item.body, item.passes, item.google.notify, item.job.state, item.job.updated])).toEqual([
        ['New classes from March.', 3, 2, 'succeeded', 3],
        ['Sauna closed on Tuesday.', 1, 1, 'succeeded', 1],
        ['Open until 22:00 today.', 1, 1, 'succeeded', 1],
        ['The pool is closed on Monday.', 1, 1, 'succeeded', 0],
        ['The pool is closed on Monday.', 3, 3, 'succeeded', 3],
      ]);
      const first = await service.call('GET', `/v1/templates/${templateId}/messages?limit=2`);
      const second = await service.call('GET', `/v1/templates/${templateId}/messages?limit=2&before=${first.body.next}`);
      expect([...first.body.items, ...second.body.items].map((item: any) => item.id)).toEqual(history.body.items.slice(0, 4).map((item: any) => item.id));
    });

    test('no field marked for messages: 422 saying how to add one; bad input is located; nothing is queued', async () => {
      const { body: plain } = await service.call('POST', '/v1/templates', {
        name: 'Plain',
        formatVersion: 1,
        passType: PASS_TYPE_IDENTIFIER,
        description: { generic: { primaryFields: [{ key: 'name', value: '${name}', changeMessage: 'Now ${name}' }] } },
        placeholder: ['name'],
      });
      const jobs = (await database.db.query<{ n: number }>('select count(*)::int as n from passmint_jobs'))[0]!.n;
      const refused = await service.call('POST', `/v1/templates/${plain.id}/messages`, { header: 'Hi', body: 'Hello' });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('no-message-field');
      expect(refused.body.detail).toContain('changeMessage');
      expect(refused.body.detail).toContain('%@');
      for (const [body, where] of [
        [{ header: '', body: 'x' }, '/header'],
        [{ header: 'x', body: 'y'.repeat(1001) }, '/body'],
        [{ header: 'x', body: 'y', filter: { tier: 'gold' } }, '/filter/tier'],
        [{ header: 'x', body: 'y', filter: { 'values.nope': 'gold' } }, '/filter/values.nope'],
        [{ header: 'x', body: 'y', filter: { updatedSince: 'yesterday' } }, '/filter'],
      ] as const) {
        const answer = await service.call('POST', `/v1/templates/${templateId}/messages`, body);
        expect([answer.status, answer.body.code, answer.body.detail.startsWith(where)]).toEqual([422, 'invalid-body', true]);
      }
      expect((await service.call('POST', '/v1/templates/99999/messages', { header: 'x', body: 'y' })).status).toBe(404);
      expect((await database.db.query<{ n: number }>('select count(*)::int as n from passmint_jobs'))[0]!.n).toBe(jobs);
      // A voided pass keeps its values: the message fails for it, named in the results.
      expect((await service.call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-3/void`)).status).toBe(200);
      const toVoided = await service.call('POST', `/v1/templates/${templateId}/messages`, { header: 'x', body: 'Too late', filter: { serialNumber: 'M-3' } });
      expect(await jobDone(toVoided.body.job.id)).toMatchObject({ state: 'succeeded', rows: 1, updated: 0, failed: 1 });
      const results = await fetch(`${service.url}/v1/jobs/${toVoided.body.job.id}/results`, { headers: { authorization: `Bearer ${service.key}` } });
      const line = JSON.parse((await results.text()).trim());
      expect([line.status, line.serialNumber, line.problem.code]).toEqual(['failed', 'M-3', 'pass-voided']);
      // Every answer above fits the OpenAPI document.
      expect(answers.map(check).filter((problem) => problem !== undefined)).toEqual([]);
    });
  });
}
