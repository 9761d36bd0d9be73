// The audit log: every change made with an API key (or the command line) recorded with its actor,
// how it came, the client's address, the action, the target and the outcome; reads never; filters,
// paging and its own retention; a JSON log line each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runServeKeys } from '../../src/cli/serve-keys.js';
import { createApiKey, revokeApiKey } from '../../src/server/db/keys.js';
import { openPglite } from '../../src/server/db/pglite.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import type { LogEntry } from '../../src/server/http/log.js';
import { createRetention } from '../../src/server/queue/retention.js';
import { API_ROUTES } from '../../src/server/routes/api.js';
import { createAuditTrail } from '../../src/server/routes/audit.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

const TEMPLATE = {
  name: 'Card',
  formatVersion: 1,
  passType: 'pass.com.example.audit',
  description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
  placeholder: ['n'],
};

interface Entry {
  seq: number;
  time: string;
  actor: { id: string; name: string };
  via: string;
  address: string | null;
  action: string;
  target: string | null;
  status: number;
  problem: string | null;
  requestId: string | null;
}

describe.each(ENGINES)('the audit log ($name)', (engine) => {
  let database: TestDatabase;
  let service: Service;
  let receiver: Receiver;
  let keyId: string;
  const log: LogEntry[] = [];

  /** The whole log, newest first. */
  const entries = async (query = ''): Promise<Entry[]> => {
    const answer = await service.call('GET', `/v1/audit?limit=100${query}`);
    expect(answer.status).toBe(200);
    return answer.body.items;
  };
  const newest = async (): Promise<Entry> => (await entries())[0]!;

  beforeAll(async () => {
    database = await engine.open();
    receiver = await startReceiver();
    service = await startService(database, { log: (entry) => log.push(entry) });
    const keys = await service.call('GET', '/v1/keys');
    keyId = keys.body.items.find((key: { prefix: string | null; name: string }) => key.prefix === service.key.slice(0, 11) || key.name === 'added key').id;
  });

  afterAll(async () => {
    await service?.close();
    await receiver?.close();
    await database?.dispose();
  });

  test('keys: a creation and a revocation, with actor, via, address, action, target and outcome; a read adds nothing', async () => {
    const before = (await entries()).length;
    const created = await service.call('POST', '/v1/keys', { name: 'shop', scopes: ['passes'] }, { 'x-request-id': 'audit-key-1' });
    expect(created.status).toBe(201);
    const entry = await newest();
    expect(entry).toEqual({
      seq: expect.any(Number),
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      actor: { id: keyId, name: expect.any(String) },
      via: 'key',
      address: expect.stringMatching(/127\.0\.0\.1$/),
      action: 'key.create',
      target: `/v1/keys/${created.body.id}`,
      status: 201,
      problem: null,
      requestId: 'audit-key-1',
    });
    // Reads are never recorded: lists, one key, the log itself.
    await service.call('GET', '/v1/keys');
    await service.call('GET', `/v1/keys/${created.body.id}`);
    await service.call('GET', '/v1/templates');
    expect((await entries()).length).toBe(before + 1);

    expect((await service.call('DELETE', `/v1/keys/${created.body.id}`)).status).toBe(204);
    expect(await newest()).toMatchObject({ action: 'key.revoke', target: `/v1/keys/${created.body.id}`, status: 204, problem: null, actor: { id: keyId } });
    // A refused change is recorded with its problem.
    expect((await service.call('DELETE', `/v1/keys/${created.body.id}`)).status).toBe(404);
    expect(await newest()).toMatchObject({ action: 'key.revoke', target: `/v1/keys/${created.body.id}`, status: 404, problem: 'key-not-found' });
    // The key's own calls are recorded under it, by name.
    const shop = await service.call('POST', '/v1/keys', { name: 'limited writer', scopes: ['admin'] });
    const own = await fetch(`${service.url}/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.body.key}`, 'content-type': 'application/json' },
      body: '{"not": "a template"}',
    });
    expect(own.status).toBe(422);
    expect(await newest()).toMatchObject({
      actor: { id: shop.body.id, name: 'limited writer' },
      action: 'template.create',
      target: '/v1/templates',
      status: 422,
    });
    expect((await newest()).problem).toMatch(/^invalid-/);
  });

  test('webhooks: create, secret rotation, disable', async () => {
    const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/hook` });
    expect(hook.status).toBe(201);
    expect(await newest()).toMatchObject({ action: 'webhook.create', target: `/v1/webhooks/${hook.body.id}`, status: 201 });
    expect((await service.call('POST', `/v1/webhooks/${hook.body.id}/secret`, {})).status).toBe(200);
    expect(await newest()).toMatchObject({ action: 'webhook.secret', target: `/v1/webhooks/${hook.body.id}`, status: 200 });
    expect((await service.call('POST', `/v1/webhooks/${hook.body.id}/disable`)).status).toBe(200);
    expect(await newest()).toMatchObject({ action: 'webhook.disable', target: `/v1/webhooks/${hook.body.id}`, status: 200 });
    // The secret shown at creation and rotation is never in the log.
    expect(JSON.stringify(await entries())).not.toContain(hook.body.secret);
  });

  test('templates: create, update, a file, an import, delete; creating passes and changing values are not recorded', async () => {
    const created = await service.call('POST', '/v1/templates', TEMPLATE);
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(await newest()).toMatchObject({ action: 'template.create', target: `/v1/templates/${id}`, status: 201 });
    expect((await service.call('PUT', `/v1/templates/${id}`, { ...TEMPLATE, name: 'Card 2' })).status).toBe(200);
    expect(await newest()).toMatchObject({ action: 'template.update', target: `/v1/templates/${id}`, status: 200 });
    const imported = await service.call('POST', `/v1/templates/${id}/imports`, 'serialNumber,n\nA-1,one\n', { 'content-type': 'text/csv' });
    expect(imported.status).toBe(202);
    expect(await newest()).toMatchObject({ action: 'template.import', target: `/v1/templates/${id}`, status: 202 });

    const before = (await entries()).length;
    const pass = await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'P-1', values: { n: 'x' } });
    expect(pass.status).toBe(201);
    expect((await service.call('PUT', `/v1/passes/${TEMPLATE.passType}/P-1/values`, { n: 'y' })).status).toBe(200);
    expect((await entries()).length).toBe(before);
    // Deleting a pass is.
    expect((await service.call('DELETE', `/v1/passes/${TEMPLATE.passType}/P-1`)).status).toBe(204);
    expect(await newest()).toMatchObject({ action: 'pass.delete', target: `/v1/passes/${TEMPLATE.passType}/P-1`, status: 204 });

    const other = await service.call('POST', '/v1/templates', { ...TEMPLATE, name: 'Spare' });
    expect((await service.call('DELETE', `/v1/templates/${other.body.id}`)).status).toBe(204);
    expect(await newest()).toMatchObject({ action: 'template.delete', target: `/v1/templates/${other.body.id}`, status: 204 });
  });

  test('a console session: recorded under its key, via session', async () => {
    const made = await service.call('POST', '/v1/keys', { name: 'console user', scopes: ['admin'] });
    const signIn = await fetch(`${service.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: made.body.key }),
    });
    expect(signIn.status).toBe(201);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const changed = await fetch(`${service.url}/v1/templates`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken, origin: service.url, 'content-type': 'application/json' },
      body: JSON.stringify({ ...TEMPLATE, name: 'By console' }),
    });
    expect(changed.status).toBe(201);
    const { id } = (await changed.json()) as { id: number };
    expect(await newest()).toMatchObject({
      actor: { id: made.body.id, name: 'console user' },
      via: 'session',
      action: 'template.create',
      target: `/v1/templates/${id}`,
      status: 201,
    });
  });

  test('a JSON log line for each entry, never a secret or a key', async () => {
    const audit = log.filter((entry) => entry.type === 'audit');
    const all = await entries();
    expect(audit.length).toBe(all.length);
    const last = all[0]!;
    expect(audit.at(-1)).toEqual({
      time: last.time,
      type: 'audit',
      seq: last.seq,
      actor: last.actor.id,
      actorName: last.actor.name,
      via: last.via,
      address: last.address,
      action: last.action,
      target: last.target,
      status: last.status,
      problem: last.problem,
      requestId: last.requestId,
    });
    expect(JSON.stringify(log)).not.toContain(service.key);
  });

  test('filters (action, actor, target, from/to) and paging; a bad filter is 400 invalid-query', async () => {
    const all = await entries();
    expect(all.length).toBeGreaterThan(8);
    expect((await entries('&action=template.update')).map((entry) => entry.seq)).toEqual(
      all.filter((entry) => entry.action === 'template.update').map((entry) => entry.seq),
    );
    expect((await entries(`&actor=${keyId}`)).length).toBe(all.filter((entry) => entry.actor.id === keyId).length);
    const target = all.find((entry) => entry.action === 'template.create' && entry.status === 201)!.target!;
    expect((await entries(`&target=${encodeURIComponent(target)}`)).map((entry) => entry.action).sort()).toEqual(
      all
        .filter((entry) => entry.target === target)
        .map((entry) => entry.action)
        .sort(),
    );
    // A time range: from the fourth-oldest entry's time, to just after the second-newest.
    const oldestFirst = [...all].reverse();
    const from = oldestFirst[3]!.time;
    const to = new Date(Date.parse(all[1]!.time) + 1).toISOString();
    const ranged = await entries(`&from=${from}&to=${to}`);
    expect(ranged.map((entry) => entry.seq)).toEqual(all.filter((entry) => entry.time >= from && entry.time < to).map((entry) => entry.seq));
    expect(ranged.length).toBeGreaterThan(0);
    expect(await entries('&from=2999-01-01T00:00:00Z')).toEqual([]);
    expect(await entries('&to=2000-01-01')).toEqual([]);

    // Pages of 3, newest first, then oldest first from `after=0`.
    const seen: number[] = [];
    let next: string | null = '';
    while (next !== null) {
      const answer = await service.call('GET', `/v1/audit?limit=3${next === '' ? '' : `&before=${next}`}`);
      seen.push(...answer.body.items.map((entry: Entry) => entry.seq));
      next = answer.body.next;
    }
    expect(seen).toEqual(all.map((entry) => entry.seq));
    const ascending = await service.call('GET', '/v1/audit?limit=2&after=0');
    expect(ascending.body.items.map((entry: Entry) => entry.seq)).toEqual(oldestFirst.slice(0, 2).map((entry) => entry.seq));

    for (const query of ['from=yesterday', 'to=2026-13-45T00:00:00Z', 'from=2026-02-30', 'to=2026-04-31T10:00:00Z', 'action=', 'before=x', 'limit=0']) {
      const answer = await service.call('GET', `/v1/audit?${query}`);
      expect([answer.status, answer.body.code]).toEqual([400, 'invalid-query']);
    }
  });

  test('append-only through the API: /v1/audit answers only GET (and HEAD); a non-admin key cannot read it', async () => {
    expect(API_ROUTES.filter((route) => route.pattern.path.startsWith('/v1/audit')).map((route) => route.method)).toEqual(['GET']);
    for (const method of ['POST', 'PUT', 'DELETE']) expect((await service.call(method, '/v1/audit')).status).toBe(405);
    const reader = await service.call('POST', '/v1/keys', { name: 'reader', scopes: ['read', 'passes'] });
    const refused = await fetch(`${service.url}/v1/audit`, { headers: { authorization: `Bearer ${reader.body.key}` } });
    expect(refused.status).toBe(403);
  });

  test('the command line: keys created and revoked are recorded as "command line", via command, no address', async () => {
    const { record } = await createApiKey(database.db, { name: 'rescue', scopes: ['admin'], commandLine: true });
    expect(await newest()).toMatchObject({
      actor: { id: 'command-line', name: 'command line' },
      via: 'command',
      address: null,
      action: 'key.create',
      target: `/v1/keys/${record.id}`,
      status: 201,
      problem: null,
      requestId: null,
    });
    await revokeApiKey(database.db, record.id, { commandLine: true });
    expect(await newest()).toMatchObject({ actor: { id: 'command-line' }, via: 'command', action: 'key.revoke', status: 204 });
    expect((await entries('&actor=command-line')).length).toBe(2);
  });

  test('its own retention: entries older than the audit days go, whatever the events retention', async () => {
    const count = async (): Promise<number> => (await database.db.query<{ n: number }>('select count(*)::int as n from passmint_audit'))[0]!.n;
    const total = await count();
    await database.db.query("update passmint_audit set at = now() - interval '400 days' where seq in (select seq from passmint_audit order by seq limit 3)");
    await database.db.query(
      "update passmint_audit set at = now() - interval '20 days' where seq in (select seq from passmint_audit order by seq offset 3 limit 2)",
    );
    // Events kept forever (0): the audit log still keeps only its 365 days.
    expect((await createRetention(database.db, { days: 0 }).runOnce()).audit).toBe(3);
    expect(await count()).toBe(total - 3);
    expect((await createRetention(database.db, { days: 30, auditDays: 10, batchSize: 1 }).runOnce()).audit).toBe(2);
    expect((await createRetention(database.db, { days: 30, auditDays: 0 }).runOnce()).audit).toBe(0);
    expect(await count()).toBe(total - 5);
  });
});

describe.each(ENGINES)('passmint serve keys in the audit log ($name)', (engine) => {
  test('create --template and revoke are recorded as the command line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'passmint-audit-'));
    const database = engine.name === 'postgres' ? await engine.open() : undefined;
    const out: string[] = [];
    const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => out.push(text), cwd: dir, env: {} };
    const where = database === undefined ? ['--data', dir] : ['--database-url', database.url!];
    try {
      // A template to limit the key to (the command cannot make one): through SQL, as the service would have.
      const db = database?.db ?? (await openPglite({ dataDir: dir }));
      try {
        if (database === undefined) await (await import('../../src/server/db/schema.js')).migrate(db);
        await db.query(`insert into passmint_templates (id, template) values (5, $1)`, [JSON.stringify({ ...TEMPLATE, id: 5 })]);
      } finally {
        if (database === undefined) await db.close();
      }
      expect(await runServeKeys(['create', '--name', 'ci', '--scopes', 'read', '--template', '5', '--json', ...where], io)).toBe(0);
      const created = JSON.parse(out.join('').trim()) as { id: string; templateIds: number[] };
      expect(created.templateIds).toEqual([5]);
      expect(await runServeKeys(['create', '--name', 'bad', '--scopes', 'read', '--template', '6', ...where], io)).toBe(1);
      expect(out.join('')).toContain('There is no template 6');
      expect(await runServeKeys(['revoke', created.id, ...where], io)).toBe(0);
      const check = database?.db ?? (await openPglite({ dataDir: dir }));
      try {
        const rows = await check.query<{ actor_id: string; actor_name: string; via: string; action: string; target: string; status: number }>(
          'select actor_id, actor_name, via, action, target, status from passmint_audit order by seq',
        );
        expect(rows).toEqual([
          { actor_id: 'command-line', actor_name: 'command line', via: 'command', action: 'key.create', target: `/v1/keys/${created.id}`, status: 201 },
          { actor_id: 'command-line', actor_name: 'command line', via: 'command', action: 'key.revoke', target: `/v1/keys/${created.id}`, status: 204 },
        ]);
      } finally {
        if (database === undefined) await check.close();
      }
    } finally {
      await database?.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the audit trail while the database is away', () => {
  test('the log line is still written (seq null), and the outage is not reported as an error; another failure is', async () => {
    let failure: Error = Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
    const db = {
      engine: 'postgres',
      async query() {
        throw failure;
      },
    } as unknown as SqlDatabase;
    const lines: LogEntry[] = [];
    const errors: unknown[] = [];
    const route = API_ROUTES.find((candidate) => candidate.method === 'POST' && candidate.pattern.path === '/v1/templates')!;
    const trail = createAuditTrail({
      db,
      routes: API_ROUTES,
      addressOf: () => '203.0.113.7',
      log: (entry) => lines.push(entry),
      onError: (error) => errors.push(error),
    });
    const caller = { ok: true, id: 'k1', name: 'deploy', scopes: ['admin'], templateIds: null, via: 'key' } as const;
    const request = new Request('http://x/v1/templates', { method: 'POST' });
    const answer = Response.json(
      { type: 'about:blank', status: 503, code: 'database-unavailable' },
      { status: 503, headers: { 'content-type': 'application/problem+json' } },
    );
    await trail.record(request, { matched: route, params: {}, caller }, answer, 'r-1');
    expect(lines).toEqual([
      expect.objectContaining({
        type: 'audit',
        seq: null,
        actor: 'k1',
        actorName: 'deploy',
        address: '203.0.113.7',
        action: 'template.create',
        target: '/v1/templates',
        status: 503,
        problem: 'database-unavailable',
        requestId: 'r-1',
      }),
    ]);
    expect(errors).toEqual([]);
    // A read is never recorded: nothing to wait for.
    const read = API_ROUTES.find((candidate) => candidate.method === 'GET' && candidate.pattern.path === '/v1/templates')!;
    expect(trail.record(request, { matched: read, params: {}, caller }, new Response(), 'r-2')).toBeUndefined();
    // A statement the database refused is an error.
    failure = Object.assign(new Error('relation "passmint_audit" does not exist'), { code: '42P01' });
    await trail.record(request, { matched: route, params: {}, caller }, new Response(null, { status: 201 }), 'r-3');
    expect(errors).toEqual([failure]);
    expect(lines).toHaveLength(2);
  });
});
