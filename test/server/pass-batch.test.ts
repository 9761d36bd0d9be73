// Creates that share one statement: each pass with its pass.created and its deliveries, in order.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPassBatch, type NewPass } from '../../src/server/db/pass-batch.js';
import { insertTemplate, insertWebhook, nextTemplateId, setWebhookState } from '../../src/server/db/store.js';
import type { Pass, PassTemplate } from '../../src/types.js';
import { createEvent } from '../../src/webhooks/event.js';
import { ENGINES, type TestDatabase } from './databases.js';

const TYPE = 'pass.com.example.batch';

for (const engine of ENGINES) {
  describe(`pass batch on ${engine.name}`, () => {
    let database: TestDatabase;
    let templateId: number;
    let hookId: string;
    let written = 0;

    beforeAll(async () => {
      database = await engine.open();
      templateId = await nextTemplateId(database.db);
      await insertTemplate(database.db, { id: templateId, name: 'batch', formatVersion: 1, passType: TYPE, description: {} } as unknown as PassTemplate);
      const hook = await insertWebhook(database.db, 'http://127.0.0.1:9/hook', 'whsec_test_0123456789');
      await setWebhookState(database.db, hook.id, 'enabled', null);
      hookId = hook.id;
    });
    afterAll(async () => {
      await database?.dispose();
    });

    const newPass = (serialNumber: string, templateVersion = 1): NewPass => ({
      templateId,
      templateVersion,
      values: { name: serialNumber },
      pass: { formatVersion: 1, passTypeIdentifier: TYPE, serialNumber, description: 'x' } as unknown as Pass,
      event: createEvent('pass.created', { serialNumber, passTypeIdentifier: TYPE }),
    });
    const counter = async () => (await database.db.query<{ value: number }>(`select value from passmint_counters where name = 'event'`))[0]!.value;

    test('creates made at once are all committed, their events numbered in order, each with its delivery', async () => {
      const batch = createPassBatch(database.db, { onWritten: () => written++ });
      const before = await counter();
      const items = Array.from({ length: 12 }, (_, index) => newPass(`B-${index}`));
      const records = await Promise.all(items.map((item) => batch.insert(item)));
      expect(records.map((record) => record?.serialNumber)).toEqual(items.map((item) => item.pass.serialNumber));
      expect(records.every((record) => record?.templateVersion === 1 && record.version === 1)).toBe(true);
      // The first went alone; the eleven that arrived while it was written, together.
      expect(written).toBe(2);
      const events = await database.db.query<{ seq: number; id: string }>('select seq, id from passmint_events where seq > $1 order by seq', [before]);
      expect(events).toEqual(items.map((item, index) => ({ seq: before + 1 + index, id: item.event.id })));
      expect(await counter()).toBe(before + 12);
      const deliveries = await database.db.query<{ n: number }>('select count(*)::int as n from passmint_deliveries where event_seq > $1', [before]);
      expect(deliveries[0]!.n).toBe(12);
    });

    test('a pass rendered from an older template version, or of a serial number taken, is not written: undefined, no event', async () => {
      const batch = createPassBatch(database.db, { onWritten: () => undefined });
      const before = await counter();
      expect(await batch.insert(newPass('STALE', 2))).toBeUndefined();
      expect(await batch.insert(newPass('B-0'))).toBeUndefined();
      expect(await counter()).toBe(before);
      expect(await database.db.query(`select 1 from passmint_passes where serial_number = 'STALE'`)).toEqual([]);
    });

    test('two creates of one serial number at once: one is written, the other is told undefined', async () => {
      const batch = createPassBatch(database.db, { onWritten: () => undefined });
      const before = await counter();
      const results = await Promise.all([batch.insert(newPass('FIRST')), batch.insert(newPass('TWIN')), batch.insert(newPass('TWIN'))]);
      expect(results.map((record) => record?.serialNumber)).toEqual(['FIRST', 'TWIN', undefined]);
      expect(await counter()).toBe(before + 2);
    });

    test('a statement that queued no delivery (no registration enabled) wakes no worker; one that did, does', async () => {
      let wakes = 0;
      const batch = createPassBatch(database.db, { onWritten: () => wakes++ });
      await setWebhookState(database.db, hookId, 'disabled', 'test');
      try {
        expect((await batch.insert(newPass('QUIET')))?.serialNumber).toBe('QUIET');
        expect(wakes).toBe(0);
      } finally {
        await setWebhookState(database.db, hookId, 'enabled', null);
      }
      expect((await batch.insert(newPass('LOUD')))?.serialNumber).toBe('LOUD');
      expect(wakes).toBe(1);
    });
  });
}
