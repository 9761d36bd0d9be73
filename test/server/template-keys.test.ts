// Keys limited to templates: such a key sees and changes only its templates and their passes.
// Every route of the API is in the table below with what a limited key gets when it names another
// template's template, pass or job (404, as for one that does not exist), a route about no one
// template (403), or a list (filtered): a route added without its line fails the first test.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_ROUTES } from '../../src/server/routes/api.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const TEMPLATE = {
  name: 'Card',
  formatVersion: 1,
  passType: 'pass.com.example.limited',
  description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
  placeholder: ['n'],
};

type Expected = 'template-not-found' | 'pass-not-found' | 'job-not-found' | 'refused' | 'filtered' | 'public';

/** What a key limited to template A gets from each route when it names template B's things. */
const TABLE: Readonly<Record<string, Expected>> = {
  'GET /v1/templates': 'filtered',
  'POST /v1/templates': 'refused',
  'GET /v1/templates/{id}': 'template-not-found',
  'PUT /v1/templates/{id}': 'template-not-found',
  'DELETE /v1/templates/{id}': 'template-not-found',
  'GET /v1/templates/{id}/files': 'template-not-found',
  'PUT /v1/templates/{id}/files/{path+}': 'template-not-found',
  'DELETE /v1/templates/{id}/files/{path+}': 'template-not-found',
  'POST /v1/templates/{id}/passes': 'template-not-found',
  'POST /v1/templates/{id}/imports': 'template-not-found',
  'GET /v1/jobs': 'filtered',
  'GET /v1/jobs/{id}': 'job-not-found',
  'POST /v1/jobs/{id}/cancel': 'job-not-found',
  'GET /v1/jobs/{id}/results': 'job-not-found',
  'POST /v1/templates/{id}/messages': 'template-not-found',
  'GET /v1/templates/{id}/messages': 'template-not-found',
  'POST /v1/bundles': 'refused',
  'POST /v1/templates/{id}/publish': 'template-not-found',
  'GET /v1/templates/{id}/versions': 'template-not-found',
  'GET /v1/passes': 'filtered',
  'GET /v1/passes/{type}/{serial}': 'pass-not-found',
  'DELETE /v1/passes/{type}/{serial}': 'pass-not-found',
  'GET /v1/passes/{type}/{serial}/values': 'pass-not-found',
  'PUT /v1/passes/{type}/{serial}/values': 'pass-not-found',
  'GET /v1/passes/{type}/{serial}/passjson': 'pass-not-found',
  'GET /v1/passes/{type}/{serial}/pkpass': 'pass-not-found',
  'GET /v1/passes/{type}/{serial}/timeline': 'pass-not-found',
  'GET /v1/passes/{type}/{serial}/google': 'pass-not-found',
  'POST /v1/passes/{type}/{serial}/void': 'pass-not-found',
  'POST /v1/passes/{type}/{serial}/expire': 'pass-not-found',
  'POST /v1/passes/{type}/{serial}/reactivate': 'pass-not-found',
  'POST /v1/templates/{id}/passes/void': 'template-not-found',
  'GET /v1/stats': 'filtered',
  'GET /v1/stats/overview': 'filtered',
  'GET /v1/webhooks': 'refused',
  'POST /v1/webhooks': 'refused',
  'GET /v1/webhooks/{id}': 'refused',
  'PUT /v1/webhooks/{id}/events': 'refused',
  'POST /v1/webhooks/{id}/verify': 'refused',
  'POST /v1/webhooks/{id}/disable': 'refused',
  'POST /v1/webhooks/{id}/secret': 'refused',
  'GET /v1/webhooks/{id}/deliveries': 'refused',
  'GET /v1/events': 'refused',
  'GET /v1/events/{id}': 'refused',
  'POST /v1/events/{id}/replay': 'refused',
  'GET /v1/keys': 'refused',
  'POST /v1/keys': 'refused',
  'GET /v1/keys/{id}': 'refused',
  'DELETE /v1/keys/{id}': 'refused',
  'GET /v1/certificates': 'refused',
  'POST /v1/certificates': 'refused',
  'GET /v1/certificates/{id}': 'refused',
  'DELETE /v1/certificates/{id}': 'refused',
  'POST /v1/google/credentials': 'refused',
  'GET /v1/google/credentials': 'refused',
  'DELETE /v1/google/credentials': 'refused',
  'GET /v1/audit': 'refused',
  'GET /metrics': 'refused',
};

const routeKey = (route: (typeof API_ROUTES)[number]): string => `${route.method} ${route.pattern.path}`;
const isPublic = (route: (typeof API_ROUTES)[number]): boolean => route.auth === 'public';

describe.each(ENGINES)('keys limited to templates ($name)', (engine) => {
  let database: TestDatabase;
  let service: Service;
  let limited: { key: string; id: string };
  let a: number;
  let b: number;
  let jobOfB: string;
  const UUID = '00000000-0000-4000-8000-000000000000';

  /** A call with the limited key. */
  const call = async (method: string, path: string, body?: unknown) =>
    service.call(method, path, body, { authorization: `Bearer ${limited.key}`, ...(typeof body === 'string' ? { 'content-type': 'text/csv' } : {}) });

  beforeAll(async () => {
    database = await engine.open();
    service = await startService(database);
    a = (await service.call('POST', '/v1/templates', { ...TEMPLATE, name: 'A' })).body.id;
    b = (await service.call('POST', '/v1/templates', { ...TEMPLATE, name: 'B' })).body.id;
    for (const [template, serial] of [
      [a, 'A-1'],
      [a, 'A-2'],
      [b, 'B-1'],
    ] as const) {
      expect((await service.call('POST', `/v1/templates/${template}/passes`, { serialNumber: serial, values: { n: serial } })).status).toBe(201);
    }
    const job = await service.call('POST', `/v1/templates/${b}/imports`, 'serialNumber,n\nB-2,two\n', { 'content-type': 'text/csv' });
    expect(job.status).toBe(202);
    jobOfB = job.body.id;
    // An admin key: what refuses it below is its templates, never its scope.
    const created = await service.call('POST', '/v1/keys', { name: 'brand A', scopes: ['admin'], templateIds: [a] });
    expect(created.status).toBe(201);
    expect(created.body.templateIds).toEqual([a]);
    limited = created.body;
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test('every route of the API is in the table (a new route says what a limited key gets)', () => {
    const keys = API_ROUTES.filter((route) => !isPublic(route) && route.pattern.path !== '/v1/openapi.json').map(routeKey);
    expect([...keys].sort()).toEqual(Object.keys(TABLE).sort());
  });

  test("on every route, another template's template, pass or job is a 404 (as if it did not exist); a route about no one template is 403", async () => {
    const fill = (path: string): string =>
      path
        .replace('{id}', path.startsWith('/v1/templates/') ? String(b) : path.startsWith('/v1/jobs/') ? jobOfB : UUID)
        .replace('{type}', TEMPLATE.passType)
        .replace('{serial}', 'B-1')
        .replace('{path+}', 'icon.png');
    const failures: string[] = [];
    for (const route of API_ROUTES) {
      const expected = TABLE[routeKey(route)];
      if (expected === undefined || expected === 'filtered' || expected === 'public') continue;
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : route.pattern.path.endsWith('/imports') ? 'serialNumber,n\nX,x\n' : {};
      const answer = await call(route.method, fill(route.pattern.path), body);
      const got = `${answer.status} ${answer.body?.code}`;
      const want = expected === 'refused' ? '403 insufficient-scope' : `404 ${expected}`;
      if (got !== want) failures.push(`${routeKey(route)}: ${got}, not ${want}`);
    }
    expect(failures).toEqual([]);
    // Nothing of B changed: its template, its pass.
    expect((await service.call('GET', `/v1/templates/${b}`)).body.name).toBe('B');
    expect((await service.call('GET', `/v1/passes/${TEMPLATE.passType}/B-1/values`)).body).toEqual({ n: 'B-1' });
  });

  test('its own template and passes: read and changed as with any key', async () => {
    expect((await call('GET', `/v1/templates/${a}`)).status).toBe(200);
    expect((await call('PUT', `/v1/templates/${a}`, { ...TEMPLATE, name: 'A 2' })).status).toBe(200);
    expect((await call('POST', `/v1/templates/${a}/passes`, { serialNumber: 'A-3', values: { n: 'three' } })).status).toBe(201);
    expect((await call('PUT', `/v1/passes/${TEMPLATE.passType}/A-3/values`, { n: '3' })).status).toBe(200);
    expect((await call('GET', `/v1/passes/${TEMPLATE.passType}/A-3`)).body.values).toEqual({ n: '3' });
    expect((await call('GET', `/v1/passes/${TEMPLATE.passType}/A-3/passjson`)).status).toBe(200);
    expect((await call('DELETE', `/v1/passes/${TEMPLATE.passType}/A-3`)).status).toBe(204);
    const job = await call('POST', `/v1/templates/${a}/imports`, 'serialNumber,n\nA-9,nine\n');
    expect(job.status).toBe(202);
    expect((await call('GET', `/v1/jobs/${job.body.id}`)).status).toBe(200);
    // A pass or job that does not exist is the same 404 as another template's.
    expect((await call('GET', `/v1/passes/${TEMPLATE.passType}/nowhere`)).body.code).toBe('pass-not-found');
    expect((await call('GET', `/v1/jobs/${UUID}`)).body.code).toBe('job-not-found');
  });

  test('lists, search and export hold only its templates and their passes and jobs', async () => {
    const templates = await call('GET', '/v1/templates');
    expect(templates.body.items.map((item: { id: number }) => item.id)).toEqual([a]);
    expect((await call('GET', '/v1/templates?before=999999999999999')).body.items.map((item: { id: number }) => item.id)).toEqual([a]);
    const passes = await call('GET', '/v1/passes');
    // A's passes (the import of A-9 above may have landed or not), never B's.
    const serials = passes.body.items.map((item: { serialNumber: string }) => item.serialNumber);
    expect(serials).toEqual(expect.arrayContaining(['A-1', 'A-2']));
    expect(serials.filter((serial: string) => !serial.startsWith('A-'))).toEqual([]);
    // Search: by serial number and by value, never finding B's pass.
    expect((await call('GET', '/v1/passes?serialNumber=B-1')).body.items).toEqual([]);
    expect((await call('GET', '/v1/passes?values.n=B-1')).body.items).toEqual([]);
    expect((await call('GET', '/v1/passes?values.n=A-1')).body.items.map((item: { serialNumber: string }) => item.serialNumber)).toEqual(['A-1']);
    expect((await call('GET', `/v1/passes?templateId=${b}`)).body.code).toBe('template-not-found');
    // Export (CSV) of its template; of another's, 404.
    const csv = await service.call('GET', `/v1/passes?templateId=${a}`, undefined, { authorization: `Bearer ${limited.key}`, accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.body).toContain('A-1');
    expect(csv.body).not.toContain('B-1');
    const other = await service.call('GET', `/v1/passes?templateId=${b}`, undefined, { authorization: `Bearer ${limited.key}`, accept: 'text/csv' });
    expect(other.status).toBe(404);
    const jobs = await call('GET', '/v1/jobs');
    expect(jobs.body.items.map((item: { id: string }) => item.id)).not.toContain(jobOfB);
    expect(jobs.body.items.every((item: { templateId: number }) => item.templateId === a)).toBe(true);
  });

  test('a key of several templates names the one it lists; templateIds that do not exist are refused at creation', async () => {
    const two = await service.call('POST', '/v1/keys', { name: 'both', scopes: ['read'], templateIds: [a, b] });
    expect(two.status).toBe(201);
    const listed = await service.call('GET', '/v1/templates', undefined, { authorization: `Bearer ${two.body.key}` });
    expect(listed.body.items.map((item: { id: number }) => item.id)).toEqual([a, b]);
    const passes = await service.call('GET', '/v1/passes', undefined, { authorization: `Bearer ${two.body.key}` });
    expect([passes.status, passes.body.code]).toEqual([400, 'invalid-query']);
    const missing = await service.call('POST', '/v1/keys', { name: 'ghost', scopes: ['read'], templateIds: [a, 999] });
    expect([missing.status, missing.body.code, missing.body.issues?.[0]?.path]).toEqual([422, 'invalid-body', '/templateIds/1']);
    const bad = await service.call('POST', '/v1/keys', { name: 'bad', scopes: ['read'], templateIds: ['x'] });
    expect([bad.status, bad.body.issues?.[0]?.path]).toEqual([422, '/templateIds/0']);
  });

  test("creating a template is refused (403), and recorded in the audit log with the key's name", async () => {
    const refused = await call('POST', '/v1/templates', TEMPLATE);
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient-scope']);
    const log = await service.call('GET', '/v1/audit?limit=1');
    expect(log.body.items[0]).toMatchObject({
      actor: { id: limited.id, name: 'brand A' },
      action: 'template.create',
      status: 403,
      problem: 'insufficient-scope',
    });
  });
});
