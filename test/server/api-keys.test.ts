import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiKey, createApiKeyChecker, ensureFirstApiKey, listApiKeys, revokeApiKey } from '../../src/server/db/keys.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer } from './openapi-check.js';

const TEMPLATE = {
  name: 'Card',
  formatVersion: 1,
  passType: 'pass.com.example.card',
  description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
  placeholder: ['n'],
};

const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

describe.each(ENGINES)('API keys and scopes ($name)', (engine) => {
  let database: TestDatabase;
  let service: Service;
  const answers: Answer[] = [];

  beforeAll(async () => {
    database = await engine.open();
    service = recordAnswers(await startService(database), answers);
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  const createKey = async (name: string, scopes: string[]): Promise<{ key: string; id: string }> => {
    const created = await service.call('POST', '/v1/keys', { name, scopes });
    expect(created.status).toBe(201);
    return created.body;
  };

  test('an admin key creates a key shown once; the list shows id, name, scopes, prefix, created, never the key', async () => {
    const created = await service.call('POST', '/v1/keys', { name: 'shop backend', scopes: ['passes'] });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^pm_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({ name: 'shop backend', scopes: ['passes'], prefix: created.body.key.slice(0, 11), lastUsed: null });
    expect(created.headers.get('location')).toBe(`${service.url}/v1/keys/${created.body.id}`);
    const listed = await service.call('GET', '/v1/keys');
    expect(listed.status).toBe(200);
    const item = listed.body.items.find((key: { id: string }) => key.id === created.body.id);
    expect(item).toEqual({
      id: created.body.id,
      name: 'shop backend',
      scopes: ['passes'],
      templateIds: null,
      prefix: created.body.key.slice(0, 11),
      created: created.body.created,
      lastUsed: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const one = await service.call('GET', `/v1/keys/${created.body.id}`);
    expect(one.body).toEqual(item);
  });

  test('a read key reads and cannot write (403 insufficient-scope naming the scope)', async () => {
    const { key } = await createKey('dashboard', ['read']);
    const list = await fetch(`${service.url}/v1/templates`, { headers: bearer(key) });
    expect(list.status).toBe(200);
    const write = await fetch(`${service.url}/v1/templates`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify(TEMPLATE),
    });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="admin"');
    expect(await write.json()).toMatchObject({ status: 403, code: 'insufficient-scope' });
    const keys = await fetch(`${service.url}/v1/keys`, { headers: bearer(key) });
    expect(keys.status).toBe(403);
    expect(await service.call('GET', '/v1/templates').then((r) => r.body.items.length)).toBe(0);
  });

  test('a passes key creates, changes and deletes passes, and cannot change templates or webhooks', async () => {
    const template = await service.call('POST', '/v1/templates', TEMPLATE);
    expect(template.status).toBe(201);
    const { key } = await createKey('issuer', ['passes']);
    const headers = { ...bearer(key), 'content-type': 'application/json' };
    const made = await fetch(`${service.url}/v1/templates/${template.body.id}/passes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ serialNumber: 'S-1', values: { n: 'one' } }),
    });
    expect(made.status).toBe(201);
    const path = `/v1/passes/pass.com.example.card/S-1`;
    expect((await fetch(`${service.url}${path}/values`, { method: 'PUT', headers, body: JSON.stringify({ n: 'two' }) })).status).toBe(200);
    expect((await fetch(`${service.url}${path}`, { headers })).status).toBe(200);
    expect((await fetch(`${service.url}/v1/templates/${template.body.id}`, { method: 'PUT', headers, body: JSON.stringify(TEMPLATE) })).status).toBe(403);
    expect((await fetch(`${service.url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: 'http://127.0.0.1:1/' }) })).status).toBe(403);
    expect((await fetch(`${service.url}${path}`, { method: 'DELETE', headers })).status).toBe(204);
  });

  test('a revoked key is refused at once (401 invalid-credentials) and leaves the list; revoking it again is 404', async () => {
    const { key, id } = await createKey('temporary', ['read']);
    expect((await fetch(`${service.url}/v1/templates`, { headers: bearer(key) })).status).toBe(200);
    expect((await service.call('DELETE', `/v1/keys/${id}`)).status).toBe(204);
    const refused = await fetch(`${service.url}/v1/templates`, { headers: bearer(key) });
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe('invalid-credentials');
    expect((await service.call('GET', '/v1/keys')).body.items.map((item: { id: string }) => item.id)).not.toContain(id);
    const again = await service.call('DELETE', `/v1/keys/${id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('key-not-found');
    expect((await service.call('DELETE', '/v1/keys/not-a-uuid')).status).toBe(404);
  });

  test('a key request with a bad name or scope is a 422 with located issues, and makes no key', async () => {
    const before = (await service.call('GET', '/v1/keys')).body.items.length;
    const bad = await service.call('POST', '/v1/keys', { name: '', scopes: ['read', 'root'] });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid-body');
    expect(bad.body.issues.map((issue: { path: string }) => issue.path)).toEqual(['/name', '/scopes/1']);
    expect((await service.call('POST', '/v1/keys', { name: 'x', scopes: [] })).status).toBe(422);
    expect((await service.call('POST', '/v1/keys', [])).status).toBe(422);
    expect((await service.call('GET', '/v1/keys')).body.items.length).toBe(before);
  });

  test('last used is recorded when a key is accepted', async () => {
    const { key, id } = await createKey('used', ['read']);
    expect((await fetch(`${service.url}/v1/events`, { headers: bearer(key) })).status).toBe(200);
    await expect.poll(async () => (await service.call('GET', `/v1/keys/${id}`)).body.lastUsed).not.toBeNull();
  });

  test('another process sees a new or revoked key within the time to live', async () => {
    const other = createApiKeyChecker(database.db, { ttlMs: 0 });
    const { key, record } = await createApiKey(database.db, { name: 'elsewhere', scopes: ['passes'] });
    const request = new Request('http://x/', { headers: bearer(key) });
    expect(await other.check(request, 'passes')).toEqual({ ok: true, id: record.id, name: 'elsewhere', scopes: ['passes'], templateIds: null, via: 'key' });
    expect(await other.check(request, 'admin')).toEqual({ ok: false, reason: 'forbidden' });
    await revokeApiKey(database.db, record.id);
    expect(await other.check(request, 'read')).toEqual({ ok: false, reason: 'invalid' });
  });

  test('revoking every key does not make a restart print a new one', async () => {
    for (const key of await listApiKeys(database.db)) await revokeApiKey(database.db, key.id);
    expect(await ensureFirstApiKey(database.db)).toBeUndefined();
  });

  test('every answer above is as the OpenAPI document says (status documented, body valid)', async () => {
    const check = await openApiChecker(service.url);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.map(check).filter((problem) => problem !== undefined)).toEqual([]);
  });
});

describe('the key check while the database is away', () => {
  test('a wrong key is still refused (invalid), a known key still passes, from the last list read', async () => {
    let down = false;
    const rows = [{ key_hash: '', id: 'k1', scopes: ['read'] }];
    const { createHash } = await import('node:crypto');
    rows[0]!.key_hash = createHash('sha256').update('pm_known').digest('hex');
    const db = {
      engine: 'postgres',
      async query(text: string) {
        if (down) throw new Error('Connection terminated unexpectedly');
        return text.startsWith('select key_hash') ? rows : [];
      },
    } as unknown as SqlDatabase;
    const checker = createApiKeyChecker(db, { ttlMs: 0 });
    const known = new Request('http://x/', { headers: bearer('pm_known') });
    const wrong = new Request('http://x/', { headers: bearer('pm_wrong') });
    expect((await checker.check(known, 'read')).ok).toBe(true);
    down = true;
    expect(await checker.check(wrong, 'read')).toEqual({ ok: false, reason: 'invalid' });
    expect(await checker.check(known, 'read')).toEqual({ ok: true, id: 'k1', scopes: ['read'], templateIds: null, via: 'key' });
    expect(await checker.check(new Request('http://x/'), 'read')).toEqual({ ok: false, reason: 'missing' });
  });

  test('before the list was ever read, the check rejects with the database error', async () => {
    const db = { engine: 'postgres', query: async () => Promise.reject(new Error('down')) } as unknown as SqlDatabase;
    await expect(createApiKeyChecker(db).check(new Request('http://x/', { headers: bearer('pm_a') }), 'read')).rejects.toThrow('down');
  });
});
