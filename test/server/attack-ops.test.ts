// Attacks on the operations routes of `passmint serve` over real HTTP on
// 127.0.0.1: `/readyz` needs no key, so a flood of it must not become a flood
// of database queries (one at a time, not a pile of them while the database hangs).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SqlDatabase } from '../../src/server/sql.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

describe('attacks on the operations routes', () => {
  let database: TestDatabase;
  let service: Service;
  let running = 0;
  let mostRunning = 0;

  beforeAll(async () => {
    database = await ENGINES[0]!.open();
    // The same database, counting the readiness query.
    const counted = new Proxy(database.db, {
      get(target, name, receiver) {
        if (name !== 'query') return Reflect.get(target, name, receiver) as unknown;
        return (text: string, params?: unknown[]) => {
          if (!text.includes('from passmint_migrations')) return target.query(text, params);
          mostRunning = Math.max(mostRunning, ++running);
          return target.query(text, params).finally(() => running--);
        };
      },
    }) as SqlDatabase;
    service = await startService({ ...database, db: counted });
  });
  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test('200 concurrent /readyz without a key are all answered, never more than one readiness query at a time', async () => {
    mostRunning = 0;
    const answers = await Promise.all(Array.from({ length: 200 }, () => fetch(`${service.url}/readyz`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(200));
    expect(((await answers[0]!.json()) as { status: string }).status).toBe('ready');
    // The requests that arrive while a query runs share it: one pool connection, whatever the flood.
    expect(mostRunning).toBe(1);
  });
});
