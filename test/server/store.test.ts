// The store's own guarantees, below the API, on both engines.
import { describe, expect, test } from 'vitest';
import { deleteTemplate, insertPass, insertTemplate, nextTemplateId } from '../../src/server/db/store.js';
import { isForeignKeyViolation } from '../../src/server/db/templates.js';
import type { Pass, PassTemplate } from '../../src/types.js';
import { ENGINES } from './databases.js';

for (const engine of ENGINES) {
  describe(`store on ${engine.name}`, () => {
    test('a template passes were made from is in use: the check says so, and the foreign key behind it is recognised when a pass slips in between', async () => {
      const database = await engine.open();
      try {
        const { db } = database;
        const id = await nextTemplateId(db);
        const template = { id, name: 'T', formatVersion: 1, passType: 'pass.com.example.t', description: {}, placeholder: [] } as unknown as PassTemplate;
        await insertTemplate(db, template);
        const pass = { serialNumber: 'S1', passTypeIdentifier: 'pass.com.example.t' } as unknown as Pass;
        expect((await insertPass(db, id, {}, pass))?.serialNumber).toBe('S1');
        expect(await insertPass(db, id, {}, pass)).toBeUndefined(); // same serial: not inserted twice
        expect(await deleteTemplate(db, id)).toBe('in-use');
        const refused = await db.query('delete from passmint_templates where id = $1', [id]).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isForeignKeyViolation(refused)).toBe(true);
        const orphan = await insertPass(db, id + 1000, {}, { ...pass, serialNumber: 'S2' }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isForeignKeyViolation(orphan)).toBe(true);
        expect(await deleteTemplate(db, id + 1000)).toBe('missing');
      } finally {
        await database.dispose();
      }
    });
  });
}
