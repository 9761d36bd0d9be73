// The console's counts are kept off the write path: an event's statement writes its pass's timeline entry
// only, and the roll-up counts the events later (in the background, before a stats read, and before a pass
// is deleted). Whatever the order, the counts are those of counting every event as it came.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { consoleBacklog, rollConsole } from '../../src/server/db/console-roll.js';
import { deleteOldEvents } from '../../src/server/db/events.js';
import { PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

const template = {
  name: 'Members',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
  placeholder: ['n'],
};

for (const engine of ENGINES) {
  describe(`the console's roll-up on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let templateId: number;

    beforeAll(async () => {
      database = await engine.open();
      // No background work: the roll-up runs only where the service asks for it (reads, deletions).
      service = await startService(database, { workers: false });
      templateId = (await service.call('POST', '/v1/templates', template)).body.id;
    });

    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    const make = async (serial: string) =>
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { n: serial }, serialNumber: serial })).status).toBe(201);
    const passesNow = async () => (await service.call('GET', '/v1/stats/overview')).body.templates[0].passes;
    const madeToday = async () => (await service.call('GET', `/v1/stats?templateId=${templateId}&interval=day`)).body.points.at(-1).passesMade;

    test('a write leaves the counting behind; a stats read counts what waits first', async () => {
      await make('R-0');
      const waiting = await consoleBacklog(database.db);
      expect(waiting).toBeGreaterThan(0);
      const metrics = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${service.key}` } })).text();
      expect(metrics).toMatch(new RegExp(`^passmint_console_backlog ${waiting}$`, 'm'));
      // The timeline entry is the write's own: there at once, with the version.
      const timeline = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/R-0/timeline`);
      expect(timeline.body.items.map((entry: { kind: string; detail: { version: number } }) => [entry.kind, entry.detail.version])).toEqual([['created', 1]]);
      expect(await passesNow()).toBe(1);
      expect(await consoleBacklog(database.db)).toBe(0);
    });

    test('a pass made and deleted before the roll-up: counted as made, and out of the passes', async () => {
      await make('R-1');
      expect(await consoleBacklog(database.db)).toBeGreaterThan(0);
      expect((await service.call('DELETE', `/v1/passes/${PASS_TYPE_IDENTIFIER}/R-1`)).status).toBe(204);
      expect(await passesNow()).toBe(1);
      expect(await madeToday()).toBe(2);
    });

    test('retention keeps the events the roll-up has not counted', async () => {
      await rollConsole(database.db, 1000, true);
      await make('R-2');
      await database.db.query("update passmint_events set created_at = now() - interval '40 days'");
      const left = async () => (await database.db.query<{ type: string }>('select type from passmint_events')).map((row) => row.type);
      await deleteOldEvents(database.db, 30, 100);
      expect(await left()).toEqual(['pass.created']);
      expect(await rollConsole(database.db, 100, true)).toBe(1);
      expect(await deleteOldEvents(database.db, 30, 100)).toBe(1);
      expect(await left()).toEqual([]);
      expect(await consoleBacklog(database.db)).toBe(0);
    });

    test('with its workers running, the service counts in the background, without a read', async () => {
      const background = await startService(database);
      try {
        const made = await background.call('POST', `/v1/templates/${templateId}/passes`, { values: { n: 'B' }, serialNumber: 'B-1' });
        expect(made.status).toBe(201);
        await eventually(async () => (await consoleBacklog(database.db)) === 0, 10_000, 'the roll-up to catch up');
        const [row] = await database.db.query<{ passes: string | number }>('select passes from passmint_template_stats where template_id = $1', [templateId]);
        expect(Number(row?.passes)).toBe(3);
      } finally {
        await background.close();
      }
    });
  });
}
