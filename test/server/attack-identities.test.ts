// Attacks on who may do what: a key limited to templates reaching another template's passes through
// a door the per-route check does not see (an import into its own template naming their serial numbers).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { issuePass, type PassIdentity, SECOND_TEAM, SECOND_TYPE } from './certificate-kit.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

// One pass type for both templates, as one Pass Type ID certificate serves many templates.
const TEMPLATE = {
  name: 'Card',
  formatVersion: 1,
  passType: 'pass.com.example.attack',
  description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
  placeholder: ['n'],
};

describe.each(ENGINES)('attacks on identities ($name)', (engine) => {
  let database: TestDatabase;
  let service: Service;
  let limited: string;
  let a: number;
  let b: number;
  let other: PassIdentity;

  beforeAll(async () => {
    // Another program's certificate (its own pass type and team), for the overview.
    other = await issuePass(SECOND_TYPE, SECOND_TEAM);
    database = await engine.open();
    service = await startService(database, { secretKey: randomBytes(32).toString('base64'), wwdr: other.pki.wwdrPem });
    a = (await service.call('POST', '/v1/templates', { ...TEMPLATE, name: 'A' })).body.id;
    b = (await service.call('POST', '/v1/templates', { ...TEMPLATE, name: 'B' })).body.id;
    expect((await service.call('POST', `/v1/templates/${b}/passes`, { serialNumber: 'B-1', values: { n: 'of B' } })).status).toBe(201);
    const made = await service.call('POST', '/v1/keys', { name: 'only A', scopes: ['admin'], templateIds: [a] });
    expect(made.status).toBe(201);
    limited = made.body.key;
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test("an upsert import into its own template cannot change another template's pass of the same type", async () => {
    const headers = { authorization: `Bearer ${limited}`, 'content-type': 'text/csv' };
    const job = await service.call('POST', `/v1/templates/${a}/imports?mode=upsert`, 'serialNumber,n\nB-1,changed through A\n', headers);
    expect(job.status).toBe(202);
    let state = job.body.state;
    let read = job;
    while (state === 'queued' || state === 'running') {
      read = await service.call('GET', `/v1/jobs/${job.body.id}`, undefined, { authorization: `Bearer ${limited}` });
      state = read.body.state;
    }
    expect(read.body).toMatchObject({ state: 'succeeded', updated: 0, failed: 1 });
    const results = await service.call('GET', `/v1/jobs/${job.body.id}/results`, undefined, { authorization: `Bearer ${limited}` });
    expect(results.body).toMatchObject({ row: 1, status: 'failed', serialNumber: 'B-1' });
    expect(JSON.stringify(results.body)).toContain('pass-exists');
    const pass = await service.call('GET', `/v1/passes/${TEMPLATE.passType}/B-1`);
    expect(pass.body).toMatchObject({ templateId: b, version: 1, values: { n: 'of B' } });
  });

  test("the audit log never holds a bundle's share link (it opens the passes without a key; audit entries go to the service's log too)", async () => {
    const bundle = await service.call('POST', '/v1/bundles', { passes: [{ passTypeIdentifier: TEMPLATE.passType, serialNumber: 'B-1' }] });
    expect(bundle.status).toBe(201);
    const audit = await service.call('GET', '/v1/audit?action=bundle.create');
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0]).toMatchObject({ action: 'bundle.create', target: '/v1/bundles', status: 201 });
    expect(JSON.stringify(audit.body)).not.toContain(bundle.body.id);
  });

  test.each([
    ['actor=%00', 'actor'],
    ['target=%2Fv1%00', 'target'],
    ['action=key.create%00', 'action'],
    ['from=0000-01-01T00:00:00Z', 'from'],
    ['from=0001-01-01T00:00:00%2B01:00', 'from'],
    ['to=9999-12-31T23:00:00-05:00', 'to'],
  ])('GET /v1/audit?%s is a 400 naming `%s`, not a 500', async (query, name) => {
    const answer = await service.call('GET', `/v1/audit?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid-query');
    expect(answer.body.detail).toContain(`\`${name}\``);
  });

  test("the overview shows a limited key only its templates' certificates", async () => {
    expect((await service.call('POST', '/v1/certificates', { certificate: other.certPem, privateKey: other.keyPem })).status).toBe(201);
    const everything = await service.call('GET', '/v1/stats/overview');
    expect(everything.body.certificates.map((certificate: { passTypeIdentifier: string }) => certificate.passTypeIdentifier)).toEqual([SECOND_TYPE]);
    const limitedView = await service.call('GET', '/v1/stats/overview', undefined, { authorization: `Bearer ${limited}` });
    expect(limitedView.status).toBe(200);
    expect(limitedView.body.templates.map((template: { id: number }) => template.id)).toEqual([a]);
    expect(limitedView.body.certificates).toEqual([]);
    expect(JSON.stringify(limitedView.body)).not.toContain(SECOND_TEAM);
  });

  test("its template cannot take another program's pass type: 403 insufficient-scope, nothing changed; a pass type one of its templates has goes", async () => {
    const auth = { authorization: `Bearer ${limited}` };
    // Another program's template, of its own pass type (made with the unlimited key).
    const c = (await service.call('POST', '/v1/templates', { ...TEMPLATE, name: 'C', passType: SECOND_TYPE })).body.id;
    const before = (await service.call('GET', `/v1/templates/${a}`)).body;
    // Another program's pass type, and one nobody uses yet (its certificate may be uploaded for another program later).
    for (const passType of [SECOND_TYPE, 'pass.com.example.unclaimed']) {
      const refused = await service.call('PUT', `/v1/templates/${a}`, { ...TEMPLATE, name: 'A', passType }, auth);
      expect([refused.status, refused.body.code]).toEqual([403, 'insufficient-scope']);
      expect(refused.body.detail).toContain(`only a pass type one of them has ("${TEMPLATE.passType}"), not "${passType}"`);
    }
    expect((await service.call('GET', `/v1/templates/${a}`)).body).toEqual(before);
    const audit = await service.call('GET', `/v1/audit?action=template.update&target=/v1/templates/${a}`);
    expect(audit.body.items.slice(0, 2)).toMatchObject([
      { status: 403, problem: 'insufficient-scope' },
      { status: 403, problem: 'insufficient-scope' },
    ]);
    // Its own pass type, kept: changed as with any key.
    expect((await service.call('PUT', `/v1/templates/${a}`, { ...TEMPLATE, name: 'A 2' }, auth)).status).toBe(200);
    // A key of both A and C holds C's pass type: it may give it to A.
    const both = (await service.call('POST', '/v1/keys', { name: 'A and C', scopes: ['admin'], templateIds: [a, c] })).body.key;
    const moved = await service.call('PUT', `/v1/templates/${a}`, { ...TEMPLATE, name: 'A 3', passType: SECOND_TYPE }, { authorization: `Bearer ${both}` });
    expect([moved.status, moved.body.passType]).toEqual([200, SECOND_TYPE]);
    // An unlimited key may move a template anywhere (back to the pass type it shares with B).
    expect((await service.call('PUT', `/v1/templates/${a}`, { ...TEMPLATE, name: 'A' })).status).toBe(200);
  });
});
