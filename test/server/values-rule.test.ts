// One rule for values that cannot be stored (a NUL character, a lone
// surrogate), whichever way they arrive: a create, a change of values, an
// import's record — the same typed 422, naming the value, nothing kept; on
// both engines.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

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

for (const engine of ENGINES) {
  describe(`values that cannot be stored on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let templateId: number;

    beforeAll(async () => {
      database = await engine.open();
      service = await startService(database);
      templateId = (await service.call('POST', '/v1/templates', template)).body.id;
    });

    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    const create = (values: unknown): ReturnType<Service['call']> => service.call('POST', `/v1/templates/${templateId}/passes`, { values });

    test('a create, a change and an import refuse NUL and lone surrogates alike: 422 invalid-values naming the value; nothing kept', async () => {
      const nul = await create({ name: 'a\u0000b', tier: 'x' });
      expect([nul.status, nul.body.code, nul.body.issues]).toEqual([
        422,
        'invalid-values',
        [{ severity: 'error', code: 'invalid-value', message: 'The value at "/name" holds a NUL character (U+0000), which cannot be stored', path: '/name' }],
      ]);
      const lone = await create({ name: 'Ada', tier: 'x\ud800y' });
      expect([lone.status, lone.body.code, lone.body.issues[0].path]).toEqual([422, 'invalid-values', '/tier']);
      expect(lone.body.detail).toBe('The value at "/tier" holds a lone surrogate (half of a UTF-16 pair), which cannot be stored.');
      // A name holding one, nested: the path says where.
      const key = await create({ name: 'Ada', tier: 'x', extra: { 'k\u0000': 1 } });
      expect([key.status, key.body.code, key.body.issues[0].path]).toEqual([422, 'invalid-values', '/extra/k\u0000']);
      // A well-formed pair (an emoji) is a value like any other.
      const emoji = await create({ name: 'Ada \u{1F600}', tier: 'x' });
      expect(emoji.status).toBe(201);

      // Changing a pass's values: the same refusal, the pass as it was.
      const path = `/v1/passes/${PASS_TYPE}/${encodeURIComponent(emoji.body.serialNumber)}`;
      const change = await service.call('PUT', `${path}/values`, { name: 'Ada', tier: '\udc00' });
      expect([change.status, change.body.code, change.body.issues[0].path]).toEqual([422, 'invalid-values', '/tier']);
      expect((await service.call('GET', path)).body).toMatchObject({ version: 1, values: { name: 'Ada \u{1F600}', tier: 'x' } });

      // An import: those records fail with the very body a create answers; the others are made.
      const lines = ['{"name":"A","tier":"x"}', '{"name":"a\\u0000b","tier":"x"}', '{"name":"Ada","tier":"x\\ud800y"}', '{"name":"C","tier":"x"}'];
      const upload = await service.call('POST', `/v1/templates/${templateId}/imports`, `${lines.join('\n')}\n`, { 'content-type': 'application/x-ndjson' });
      expect(upload.status).toBe(202);
      let job: any;
      await eventually(
        async () => {
          job = (await service.call('GET', `/v1/jobs/${upload.body.id}`)).body;
          return job.finishedAt !== null;
        },
        30_000,
        'the import to end',
      );
      expect(job).toMatchObject({ state: 'succeeded', rows: 4, created: 2, failed: 2 });
      const answer = await fetch(`${service.url}/v1/jobs/${upload.body.id}/results`, { headers: { authorization: `Bearer ${service.key}` } });
      const results = (await answer.text())
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line));
      expect(results.map((line) => [line.row, line.status])).toEqual([
        [1, 'created'],
        [2, 'failed'],
        [3, 'failed'],
        [4, 'created'],
      ]);
      expect(results[1].problem).toEqual(nul.body);
      expect(results[2].problem).toEqual(lone.body);

      // Kept: the emoji pass and the import's two; the refused ones nowhere.
      const listed = await service.call('GET', `/v1/passes?templateId=${templateId}`);
      const serials = results.filter((line) => line.status === 'created').map((line) => line.serialNumber);
      expect(listed.body.items.map((item: { serialNumber: string }) => item.serialNumber).sort()).toEqual([emoji.body.serialNumber, ...serials].sort());
    });
  });
}
