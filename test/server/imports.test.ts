// Imports (issue 27): POST /v1/templates/{id}/imports with CSV (RFC 4180) or
// JSON lines, run as a job; its state and counts, its results stream, upsert,
// cancel, and the refusals — on both engines.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer, type AnswerCheck } from './openapi-check.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const PASS_TYPE = 'pass.com.example.member';

const template = {
  name: 'Member card',
  formatVersion: 1,
  passType: PASS_TYPE,
  description: {
    generic: {
      primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }],
      secondaryFields: [{ key: 'tier', label: 'Tier', value: '${tier}' }],
    },
  },
  placeholder: ['name', 'tier'],
};

interface ResultLine {
  row: number;
  status: string;
  serialNumber: string | null;
  problem?: { code: string; status: number; detail: string; type: string; title: string; issues?: unknown[] };
}

for (const engine of ENGINES) {
  describe(`imports on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let receiver: Receiver;
    let check: AnswerCheck;
    const answers: Answer[] = [];
    let templateId: number;

    beforeAll(async () => {
      database = await engine.open();
      service = await startService(database);
      receiver = await startReceiver();
      check = await openApiChecker(service.url);
      service = recordAnswers(service, answers);
      templateId = (await service.call('POST', '/v1/templates', template)).body.id;
    });

    afterAll(async () => {
      await service?.close();
      await receiver?.close();
      await database?.dispose();
    });

    const upload = (body: string | Uint8Array, type = 'text/csv', query = ''): ReturnType<Service['call']> =>
      service.call('POST', `/v1/templates/${templateId}/imports${query}`, body, { 'content-type': type });

    /** Waits for a job to end; resolves to it. */
    const finished = async (id: string): Promise<any> => {
      let job: any;
      await eventually(
        async () => {
          job = (await service.call('GET', `/v1/jobs/${id}`)).body;
          return job.finishedAt !== null;
        },
        30_000,
        `job ${id} to end`,
      );
      return job;
    };

    /** The results stream (read with fetch: the harness would parse a JSON lines body as one JSON value). */
    const results = async (id: string, key = service.key): Promise<ResultLine[]> => {
      const answer = await fetch(`${service.url}/v1/jobs/${id}/results`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      return (await answer.text())
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as ResultLine);
    };

    test('a CSV with RFC 4180 edge cases: quoted commas, quotes, line breaks, a BOM, CRLF — each record one pass, rows numbered by record', async () => {
      const csv =
        '\uFEFFname,tier,serialNumber\r\n' +
        '"Lovelace, Ada",gold,CSV-1\r\n' +
        '"Grace ""Amazing"" Hopper",silver,CSV-2\r\n' +
        '"Two\r\nlines",bronze,CSV-3\r\n' +
        'Plain,,CSV-4\r\n';
      const answer = await upload(csv);
      expect(answer.status).toBe(202);
      expect(answer.headers.get('location')).toBe(`${service.url}/v1/jobs/${answer.body.id}`);
      expect(answer.body).toMatchObject({ kind: 'import', templateId, rows: 4, mode: 'create' });
      expect(['queued', 'running', 'succeeded']).toContain(answer.body.state);
      const job = await finished(answer.body.id);
      expect(job).toMatchObject({ state: 'succeeded', rows: 4, created: 4, updated: 0, unchanged: 0, failed: 0, error: null });
      expect(await results(answer.body.id)).toEqual([
        { row: 1, status: 'created', serialNumber: 'CSV-1' },
        { row: 2, status: 'created', serialNumber: 'CSV-2' },
        { row: 3, status: 'created', serialNumber: 'CSV-3' },
        { row: 4, status: 'created', serialNumber: 'CSV-4' },
      ]);
      const values = async (serial: string): Promise<unknown> => (await service.call('GET', `/v1/passes/${PASS_TYPE}/${serial}/values`)).body;
      expect(await values('CSV-1')).toEqual({ name: 'Lovelace, Ada', tier: 'gold' });
      expect(await values('CSV-2')).toEqual({ name: 'Grace "Amazing" Hopper', tier: 'silver' });
      expect(await values('CSV-3')).toEqual({ name: 'Two\r\nlines', tier: 'bronze' });
      expect(await values('CSV-4')).toEqual({ name: 'Plain', tier: '' });
      // LF line ends, no serial column: each record gets a new serial number, reported in its result.
      const lf = await upload('tier,name\nsilver,"Line\nbreak"\ngold,Second\n');
      const second = await finished(lf.body.id);
      expect(second).toMatchObject({ state: 'succeeded', rows: 2, created: 2 });
      const lines = await results(lf.body.id);
      expect(lines.map((line) => [line.row, line.status])).toEqual([
        [1, 'created'],
        [2, 'created'],
      ]);
      expect(await values(lines[0]!.serialNumber!)).toEqual({ name: 'Line\nbreak', tier: 'silver' });
    });

    test('JSON lines: one object of values per line, blank lines skipped, typed values kept', async () => {
      const ndjson = '{"name":"Ada","tier":"gold","serialNumber":"J-1"}\r\n\n{"name":"Bob","tier":7}\n{"name":"Cy"}';
      const answer = await upload(ndjson, 'application/x-ndjson');
      expect(answer.status).toBe(202);
      expect(answer.body.rows).toBe(3);
      const job = await finished(answer.body.id);
      expect(job).toMatchObject({ state: 'succeeded', created: 2, failed: 1 });
      const lines = await results(answer.body.id);
      expect(lines[0]).toEqual({ row: 1, status: 'created', serialNumber: 'J-1' });
      expect(lines[1]).toMatchObject({ row: 2, status: 'created' });
      // A value left out is what a create would refuse: the same problem body.
      const single = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Cy' } });
      expect(lines[2]).toEqual({ row: 3, status: 'failed', serialNumber: null, problem: single.body });
      // A NUL in a value is that row's problem; the rows around it are made.
      const nul = await upload('{"name":"A","tier":"x"}\n{"name":"B\\u0000","tier":"x"}\n{"name":"C","tier":"x"}\n', 'application/x-ndjson');
      expect(await finished(nul.body.id)).toMatchObject({ state: 'succeeded', created: 2, failed: 1 });
      expect((await results(nul.body.id)).map((line) => [line.row, line.status, line.problem?.code])).toEqual([
        [1, 'created', undefined],
        [2, 'failed', 'invalid-values'],
        [3, 'created', undefined],
      ]);
    });

    test('a bad row never stops the job: each failed row with its number and the problem the single create answers', async () => {
      await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Taken', tier: 'x' }, serialNumber: 'TAKEN' });
      const long = 'L'.repeat(300);
      const csv = ['name,tier,serialNumber', 'Ok1,a,ROW-1', 'Dup,b,TAKEN', `Long,c,${long}`, 'Short,d', 'Ok2,e,ROW-2', 'Again,f,ROW-1', 'Dot,g,..'].join('\n');
      const answer = await upload(csv);
      const job = await finished(answer.body.id);
      expect(job).toMatchObject({ state: 'succeeded', rows: 7, created: 2, failed: 5 });
      const lines = await results(answer.body.id);
      expect(lines.map((line) => [line.row, line.status, line.problem?.code])).toEqual([
        [1, 'created', undefined],
        [2, 'failed', 'pass-exists'],
        [3, 'failed', 'invalid-body'],
        [4, 'failed', 'invalid-body'],
        [5, 'created', undefined],
        [6, 'failed', 'pass-exists'],
        [7, 'failed', 'invalid-body'],
      ]);
      const singleTaken = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Dup', tier: 'b' }, serialNumber: 'TAKEN' });
      expect(lines[1]!.problem).toEqual(singleTaken.body);
      const singleLong = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Long', tier: 'c' }, serialNumber: long });
      expect(lines[2]!.problem).toEqual(singleLong.body);
      const singleDot = await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { name: 'Dot', tier: 'g' }, serialNumber: '..' });
      expect(lines[6]!.problem).toEqual(singleDot.body);
      expect(lines[3]!.problem!.detail).toBe('Row 4 has 2 fields; the header has 3.');
    });

    test('upsert: new serials made, changed rows a new version with pass.updated, same rows unchanged; counts and versions', async () => {
      const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/upsert` });
      receiver.secrets.set('/upsert', [hook.body.secret]);
      const first = await upload('serialNumber,name,tier\nU-1,Ann,gold\nU-2,Ben,silver\n', 'text/csv', '?mode=upsert');
      expect(first.body.mode).toBe('upsert');
      expect(await finished(first.body.id)).toMatchObject({ state: 'succeeded', created: 2 });
      const again = await upload('serialNumber,name,tier\nU-1,Ann,platinum\nU-2,Ben,silver\nU-3,Cat,gold\n', 'text/csv', '?mode=upsert');
      expect(await finished(again.body.id)).toMatchObject({ state: 'succeeded', rows: 3, created: 1, updated: 1, unchanged: 1, failed: 0 });
      expect(await results(again.body.id)).toEqual([
        { row: 1, status: 'updated', serialNumber: 'U-1' },
        { row: 2, status: 'unchanged', serialNumber: 'U-2' },
        { row: 3, status: 'created', serialNumber: 'U-3' },
      ]);
      const u1 = (await service.call('GET', `/v1/passes/${PASS_TYPE}/U-1`)).body;
      const u2 = (await service.call('GET', `/v1/passes/${PASS_TYPE}/U-2`)).body;
      expect([u1.version, u1.values]).toEqual([2, { name: 'Ann', tier: 'platinum' }]);
      expect(u2.version).toBe(1);
      // The token survives the new version, as with PUT …/values.
      const passjson = (await service.call('GET', `/v1/passes/${PASS_TYPE}/U-1/passjson`)).body;
      expect(passjson.serialNumber).toBe('U-1');
      await eventually(
        () =>
          receiver.received.some((entry) => entry.path === '/upsert' && entry.event.type === 'pass.updated' && entry.event.data['serialNumber'] === 'U-1') &&
          receiver.received.filter((entry) => entry.path === '/upsert' && entry.event.type === 'job.completed').length >= 2,
        20_000,
        'pass.updated and job.completed delivered',
      );
      const updates = receiver.received.filter((entry) => entry.path === '/upsert' && entry.event.type === 'pass.updated');
      expect(updates.map((entry) => entry.event.data['serialNumber'])).toEqual(['U-1']);
      const completed = receiver.received.filter((entry) => entry.path === '/upsert' && entry.event.type === 'job.completed').map((entry) => entry.event.data);
      expect(completed).toContainEqual({
        jobId: again.body.id,
        kind: 'import',
        state: 'succeeded',
        templateId,
        rows: 3,
        created: 1,
        updated: 1,
        unchanged: 1,
        failed: 0,
      });
      // create mode: an existing serial is a failed row, nothing changed.
      const create = await upload('serialNumber,name,tier\nU-1,Changed,gold\n');
      expect(await finished(create.body.id)).toMatchObject({ created: 0, failed: 1 });
      expect((await service.call('GET', `/v1/passes/${PASS_TYPE}/U-1`)).body.version).toBe(2);
    });

    test('upsert: a serial number named again later in the file changes the pass its earlier row made (a later batch, read while the earlier one is written)', async () => {
      const csv = 'serialNumber,name,tier\nD-1,Dee,gold\nD-2,Eve,gold\nD-1,Dee,silver\nD-1,Dee,silver\nD-2,Eve,gold\n';
      const answer = await upload(csv, 'text/csv', '?mode=upsert');
      expect(await finished(answer.body.id)).toMatchObject({ state: 'succeeded', rows: 5, created: 2, updated: 1, unchanged: 2, failed: 0 });
      expect(await results(answer.body.id)).toEqual([
        { row: 1, status: 'created', serialNumber: 'D-1' },
        { row: 2, status: 'created', serialNumber: 'D-2' },
        { row: 3, status: 'updated', serialNumber: 'D-1' },
        { row: 4, status: 'unchanged', serialNumber: 'D-1' },
        { row: 5, status: 'unchanged', serialNumber: 'D-2' },
      ]);
      const d1 = (await service.call('GET', `/v1/passes/${PASS_TYPE}/D-1`)).body;
      expect([d1.version, d1.values]).toEqual([2, { name: 'Dee', tier: 'silver' }]);
      expect((await service.call('GET', `/v1/passes/${PASS_TYPE}/D-2`)).body.version).toBe(1);
    });

    test('refused before anything is made: unknown or missing column, not CSV, not JSON lines, not UTF-8, another media type, a bad mode', async () => {
      const jobsBefore = (await service.call('GET', '/v1/jobs?limit=100')).body.items.length;
      const passesBefore = (await service.call('GET', '/v1/passes?limit=100')).body.items.length;
      const refusals: [string | Uint8Array, string, string, number, RegExp][] = [
        ['name,tierr,serialNumber\nA,b,c\n', 'text/csv', '', 422, /Unknown column "tierr".*did you mean "tier"/],
        ['name\nA\n', 'text/csv', '', 422, /no column for the placeholder "tier"/],
        ['name,tier,name\nA,b,c\n', 'text/csv', '', 422, /"name" appears twice/],
        ['name,tier\nA,"unclosed\n', 'text/csv', '', 422, /^Line 2: not CSV/],
        ['name,tier\nA,b"c\n', 'text/csv', '', 422, /^Line 2: not CSV/],
        ['', 'text/csv', '', 422, /empty/],
        ['{"name":"A","tier":"b"}\n{"name":\n', 'application/x-ndjson', '', 422, /^Line 2: not JSON lines/],
        ['{"name":"A","tier":"b"}\n[1]\n', 'application/x-ndjson', '', 422, /^Line 2: not JSON lines: each line is a JSON object/],
        ['{"name":"A","tier":"b","color":"red"}\n', 'application/x-ndjson', '', 422, /^Line 1: unknown key "color"/],
        [new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe]), 'text/csv', '', 422, /not UTF-8/],
        ['name,tier\nA,b\n', 'application/json', '', 415, /text\/csv/],
        ['name,tier\nA,b\n', 'text/csv', '?mode=replace', 400, /`mode`/],
      ];
      for (const [body, type, query, status, detail] of refusals) {
        const answer = await upload(body, type, query);
        expect([answer.status, answer.body.detail]).toEqual([status, expect.stringMatching(detail)]);
        if (status === 422) expect(answer.body.code).toBe('invalid-import');
      }
      expect((await service.call('GET', '/v1/jobs?limit=100')).body.items.length).toBe(jobsBefore);
      expect((await service.call('GET', '/v1/passes?limit=100')).body.items.length).toBe(passesBefore);
      expect((await service.call('POST', '/v1/templates/99999/imports', 'name,tier\n', { 'content-type': 'text/csv' })).body.code).toBe('template-not-found');
    });

    test('a read key is refused (403), and cannot cancel; it can read jobs and results', async () => {
      const made = await service.call('POST', '/v1/keys', { name: 'reader', scopes: ['read'] });
      const read = { authorization: `Bearer ${made.body.key}` };
      const refused = await service.call('POST', `/v1/templates/${templateId}/imports`, 'name,tier\nA,b\n', { ...read, 'content-type': 'text/csv' });
      expect([refused.status, refused.body.code]).toEqual([403, 'insufficient-scope']);
      const job = (await service.call('GET', '/v1/jobs?limit=1')).body.items[0];
      expect((await service.call('POST', `/v1/jobs/${job.id}/cancel`, undefined, read)).status).toBe(403);
      expect((await service.call('GET', `/v1/jobs/${job.id}`, undefined, read)).status).toBe(200);
      expect(await results(job.id, made.body.key)).toEqual(await results(job.id));
    });

    test('jobs are listed newest first, a page at a time; an ended job cannot be cancelled; unknown ids are 404', async () => {
      const page = (await service.call('GET', '/v1/jobs?limit=2')).body;
      expect(page.items).toHaveLength(2);
      expect(page.next).not.toBeNull();
      const rest = (await service.call('GET', `/v1/jobs?limit=100&before=${page.next}`)).body;
      expect(rest.items.map((job: { id: string }) => job.id)).not.toContain(page.items[0].id);
      const ended = page.items.find((job: { state: string }) => job.state === 'succeeded');
      const cancel = await service.call('POST', `/v1/jobs/${ended.id}/cancel`);
      expect([cancel.status, cancel.body.code]).toEqual([409, 'job-ended']);
      expect((await service.call('GET', '/v1/jobs/00000000-0000-4000-8000-000000000000')).body.code).toBe('job-not-found');
      expect((await fetch(`${service.url}/v1/jobs/nope/results`, { headers: { authorization: `Bearer ${service.key}` } })).status).toBe(404);
    });

    test('every answer above is as the OpenAPI document says', () => {
      const wrong = answers.map(check).filter((problem) => problem !== undefined);
      expect(wrong).toEqual([]);
    });
  });
}
