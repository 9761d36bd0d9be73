// Attacks on the routes of `passmint serve` that need no key, over real HTTP
// on 127.0.0.1: a flood of `/readyz` must not become a flood of database
// queries (one at a time, not a pile of them while the database hangs), and
// the template images served for Google are rate limited per address like
// the other public routes (each is a database read of up to 4 MiB).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

describe('attacks on the routes that need no key', () => {
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
    service = await startService({ ...database, db: counted }, { limits: { ratePerAddress: 5 } });
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

  test("the Google images route takes from the address's bucket before any work: past the rate, 429 rate-limited with Retry-After", async () => {
    const image = `${service.url}/google/images/1/${'0'.repeat(64)}/logo.png`;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let index = 0; index < 6; index++) {
      last = await fetch(image);
      statuses.push(last.status);
      if (index < 5) await last.arrayBuffer();
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(((await last!.json()) as { code: string }).code).toBe('rate-limited');
  });

  test('/v1/openapi.json (74 KB, no key) is written once: every answer carries one strong ETag, and If-None-Match is a 304 without a body', async () => {
    const first = await fetch(`${service.url}/v1/openapi.json`);
    const text = await first.text();
    const etag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect((JSON.parse(text) as { openapi: string }).openapi).toBe('3.1.0');
    const second = await fetch(`${service.url}/v1/openapi.json`);
    expect(second.headers.get('etag')).toBe(etag);
    expect(await second.text()).toBe(text);
    const cached = await fetch(`${service.url}/v1/openapi.json`, { headers: { 'if-none-match': `W/"other", ${etag!}` } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
  });
});
