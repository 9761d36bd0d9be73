// The OpenAPI document against the service: every route of the router and of
// Apple's web service is documented, every documented operation is served,
// and the bodies of real answers (successes and problems) validate against
// the document's schemas, compiled with ajv.
import AjvModule from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ServiceHandler } from '../../src/server/handler.js';
import { WALLET_ROUTES } from '../../src/server/http/log.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { allowedMethods } from '../../src/wallet/route.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

// A CommonJS module: its class is the default export's `default` under Node's ESM interop.
const Ajv2020 = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as typeof import('ajv/dist/2020.js').Ajv2020;

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const template = {
  name: 'Member card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: { logoText: '${club}', generic: { primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }] } },
  placeholder: ['club', 'name'],
};

/** The router's `:name` and `*` as the document writes them. */
const documented = (pattern: string): string => pattern.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\*$/, '{path}');

describe('the OpenAPI document', () => {
  let database: TestDatabase;
  let service: Service;
  let receiver: Receiver;
  let doc: Doc;
  let ajv: InstanceType<typeof Ajv2020>;
  const checked = new Set<string>();

  beforeAll(async () => {
    database = await ENGINES[0]!.open();
    const pki = await makePki();
    const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
    receiver = await startReceiver();
    service = await startService(database, { signer });
    const response = await fetch(`${service.url}/v1/openapi.json`);
    expect(response.status).toBe(200);
    doc = await response.json();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/);
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    ajv.addSchema({ ...doc, $id: 'https://passmint.dev/openapi.json' });
  });

  afterAll(async () => {
    await service?.close();
    await receiver?.close();
    await database?.dispose();
  });

  /** The documented path a real path falls under (`/v1/passes/a/b` → `/v1/passes/{type}/{serial}`). */
  const templateOf = (path: string): string | undefined => {
    const segments = path.split('?')[0]!.split('/');
    return Object.keys(doc.paths).find((candidate) => {
      const parts = candidate.split('/');
      if (parts[parts.length - 1] === '{path}')
        return segments.length >= parts.length && parts.slice(0, -1).every((part, index) => part.startsWith('{') || part === segments[index]);
      return parts.length === segments.length && parts.every((part, index) => part.startsWith('{') || part === segments[index]);
    });
  };

  /** Calls the service and checks the answer against the document: the status is documented (a problem may fall under `default`), the body validates. */
  const call = async (
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; key?: string | null } = {},
  ): Promise<{ status: number; body: any }> => {
    const headers: Record<string, string> = { ...(init.key === null ? {} : { authorization: `Bearer ${init.key ?? service.key}` }), ...init.headers };
    let requestBody: BodyInit | undefined;
    if (init.body instanceof Uint8Array) requestBody = init.body as Uint8Array<ArrayBuffer>;
    else if (init.body !== undefined) {
      requestBody = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${service.url}${path}`, { method, headers, ...(requestBody === undefined ? {} : { body: requestBody }), redirect: 'manual' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const pathTemplate = templateOf(path);
    expect(pathTemplate, `${method} ${path} is documented`).toBeDefined();
    const operation = doc.paths[pathTemplate!]![method.toLowerCase()];
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (operation === undefined) {
      // A method the path does not have: 405, a problem like any other.
      expect(response.status).toBe(405);
      expect(type).toBe('application/problem+json');
      const validate = ajv.getSchema('https://passmint.dev/openapi.json#/components/schemas/Problem')!;
      const problemBody = JSON.parse(new TextDecoder().decode(bytes));
      expect(validate(problemBody), ajv.errorsText(validate.errors)).toBe(true);
      return { status: response.status, body: problemBody };
    }
    const isProblem = type === 'application/problem+json';
    const documentedResponse = operation!.responses[String(response.status)] ?? (isProblem ? operation!.responses['default'] : undefined);
    expect(documentedResponse, `${method} ${pathTemplate} answers ${response.status} as documented`).toBeDefined();
    checked.add(`${method.toLowerCase()} ${pathTemplate}`);
    let body: unknown;
    if (bytes.length > 0 && type.endsWith('json')) {
      body = JSON.parse(new TextDecoder().decode(bytes));
      const media = documentedResponse!.content?.[type];
      expect(media, `${method} ${pathTemplate} ${response.status} documents ${type}`).toBeDefined();
      const index = Object.keys(operation!.responses).includes(String(response.status)) ? String(response.status) : 'default';
      const pointer = `https://passmint.dev/openapi.json#/paths/${pathTemplate!.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${index}/content/${type.replace('/', '~1')}/schema`;
      const validate = ajv.getSchema(pointer);
      expect(validate, pointer).toBeDefined();
      if (!validate!(body)) expect.fail(`${method} ${path} ${response.status}: ${ajv.errorsText(validate!.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
    } else if (bytes.length > 0) {
      expect(
        documentedResponse!.content?.[type] ?? documentedResponse!.content?.[type.replace(/^image\/.*$/, 'image/png')],
        `${method} ${pathTemplate} ${response.status} documents ${type}`,
      ).toBeDefined();
    }
    return { status: response.status, body };
  };

  test('every route the router serves is documented with its methods, and every documented API operation is a route', () => {
    const routes = (service.server.fetch as ServiceHandler).routes;
    const served = new Set<string>();
    for (const route of routes) {
      for (const method of route.methods) if (method !== 'HEAD') served.add(`${method.toLowerCase()} ${documented(route.pattern)}`);
    }
    for (const [kind, path] of Object.entries(WALLET_ROUTES)) {
      for (const method of allowedMethods[kind as keyof typeof allowedMethods].split(', '))
        if (method !== 'HEAD') served.add(`${method.toLowerCase()} ${path}`);
    }
    const inDocument = new Set(
      Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((method) => METHODS.includes(method))
          .map((method) => `${method} ${path}`),
      ),
    );
    expect(
      [...served].filter((operation) => !inDocument.has(operation)),
      'served but not documented',
    ).toEqual([]);
    expect(
      [...inDocument].filter((operation) => !served.has(operation)),
      'documented but not served',
    ).toEqual([]);
  });

  test('the compiled schemas refuse what does not match (the checks below can fail)', () => {
    const problemSchema = ajv.getSchema('https://passmint.dev/openapi.json#/components/schemas/Problem')!;
    expect(problemSchema({ type: 'x', title: 'x', status: 404, code: 'not-found' })).toBe(true);
    expect(problemSchema({ type: 'x', title: 'x', status: 200, code: 'not-found' })).toBe(false);
    const passSchema = ajv.getSchema('https://passmint.dev/openapi.json#/components/schemas/Pass')!;
    expect(passSchema({ passTypeIdentifier: 'p', serialNumber: 1 })).toBe(false);
  });

  test('every operation that needs an API key names the scope the router enforces', async () => {
    const readKey = (await call('POST', '/v1/keys', { body: { name: 'reader', scopes: ['read'] } })).body.key as string;
    const refused = await call('POST', '/v1/templates', { body: template, key: readKey });
    expect(refused.status).toBe(403);
    expect((doc.paths['/v1/templates']!['post'] as unknown as { 'x-scope': string })['x-scope']).toBe('admin');
    expect((doc.paths['/v1/passes/{type}/{serial}/values']!['put'] as unknown as { 'x-scope': string })['x-scope']).toBe('passes');
    expect((doc.paths['/v1/passes']!['get'] as unknown as { 'x-scope': string })['x-scope']).toBe('read');
  });

  test('real requests of the whole API validate against the document', async () => {
    // Templates and files.
    expect((await call('GET', '/v1/templates')).status).toBe(200);
    const created = await call('POST', '/v1/templates', { body: template });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect((await call('POST', '/v1/templates', { body: { name: 'x' } })).status).toBe(422);
    expect((await call('GET', `/v1/templates/${id}`)).status).toBe(200);
    expect((await call('GET', '/v1/templates/999999')).status).toBe(404);
    expect((await call('PUT', `/v1/templates/${id}`, { body: template })).status).toBe(200);
    expect((await call('PUT', `/v1/templates/${id}/files/icon.png`, { body: png(29, 29), headers: { 'content-type': 'image/png' } })).status).toBe(201);
    expect((await call('PUT', `/v1/templates/${id}/files/en.lproj/logo.png`, { body: png(50, 50), headers: { 'content-type': 'image/png' } })).status).toBe(
      201,
    );
    expect((await call('GET', `/v1/templates/${id}/files`)).body.items).toHaveLength(2);
    expect((await call('DELETE', `/v1/templates/${id}/files/en.lproj/logo.png`)).status).toBe(204);

    // Passes.
    const made = await call('POST', `/v1/templates/${id}/passes`, { body: { serialNumber: 'O-1', values: { club: 'Chess', name: 'Ada' } } });
    expect(made.status).toBe(201);
    expect((await call('POST', `/v1/templates/${id}/passes`, { body: { serialNumber: 'O-1', values: { club: 'Chess', name: 'Ada' } } })).status).toBe(409);
    const pass = `/v1/passes/${PASS_TYPE_IDENTIFIER}/O-1`;
    expect((await call('GET', '/v1/passes')).body.items).toHaveLength(1);
    expect((await call('GET', pass)).status).toBe(200);
    expect((await call('GET', `${pass}/values`)).status).toBe(200);
    expect((await call('PUT', `${pass}/values`, { body: { club: 'Chess', name: 'Ada L.' } })).status).toBe(200);
    expect((await call('PUT', `${pass}/values`, { body: [1] })).status).toBe(422);
    // Imports and jobs (one record, so the JSON lines of the results are one JSON value).
    const imported = await call('POST', `/v1/templates/${id}/imports`, {
      body: new TextEncoder().encode('serialNumber,club,name\nO-2,Chess,Bob\n'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status).toBe(202);
    expect((await call('GET', '/v1/jobs')).status).toBe(200);
    await eventually(async () => (await call('GET', `/v1/jobs/${imported.body.id}`)).body.finishedAt !== null, 10_000, 'the import');
    expect((await call('GET', `/v1/jobs/${imported.body.id}/results`)).status).toBe(200);
    expect((await call('POST', `/v1/jobs/${imported.body.id}/cancel`)).status).toBe(409);
    expect((await call('DELETE', `/v1/passes/${PASS_TYPE_IDENTIFIER}/O-2`)).status).toBe(204);
    // Publishing, versions and a pass's lifecycle.
    expect((await call('POST', `/v1/templates/${id}/publish?dryRun=true`)).status).toBe(200);
    const published = await call('POST', `/v1/templates/${id}/publish`);
    expect(published.status).toBe(202);
    await eventually(async () => (await call('GET', `/v1/jobs/${published.body.id}`)).body.finishedAt !== null, 10_000, 'the publish');
    expect((await call('POST', `/v1/templates/${id}/publish?dryRun=maybe`)).status).toBe(400);
    expect((await call('GET', `/v1/templates/${id}/versions`)).status).toBe(200);
    expect((await call('POST', `/v1/templates/${id}/passes`, { body: { serialNumber: 'O-3', values: { club: 'Chess', name: 'Cy' } } })).status).toBe(201);
    expect((await call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/O-3/expire`)).status).toBe(200);
    expect((await call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/O-3/reactivate`)).status).toBe(200);
    expect((await call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/O-3/void`)).status).toBe(200);
    expect((await call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/O-3/expire`)).status).toBe(409);
    const voids = await call('POST', `/v1/templates/${id}/passes/void?serialNumber=O-3`);
    expect(voids.status).toBe(202);
    await eventually(async () => (await call('GET', `/v1/jobs/${voids.body.id}`)).body.finishedAt !== null, 10_000, 'the bulk void');
    expect((await call('DELETE', `/v1/passes/${PASS_TYPE_IDENTIFIER}/O-3`)).status).toBe(204);
    const passjson = await call('GET', `${pass}/passjson`);
    expect(passjson.status).toBe(200);
    const token = passjson.body.authenticationToken as string;
    expect((await call('GET', `${pass}/pkpass`)).status).toBe(200);
    expect((await call('GET', `${pass}/pkpass?token=${token}`, { key: null })).status).toBe(200);
    expect((await call('GET', `${pass}/pkpass?token=wrong-token-0123456789`, { key: null })).status).toBe(401);
    expect((await call('GET', `${pass}/google`)).status).toBe(409);

    // Apple's web service.
    const device = 'device0123456789abcdef';
    const registration = `/wallet/v1/devices/${device}/registrations/${PASS_TYPE_IDENTIFIER}/O-1`;
    const apple = { authorization: `ApplePass ${token}` };
    expect((await call('POST', registration, { key: null, headers: apple, body: { pushToken: 'ab'.repeat(32) } })).status).toBe(201);
    expect(
      (await call('POST', registration, { key: null, headers: { authorization: 'ApplePass wrong-token-123456789' }, body: { pushToken: 'ab'.repeat(32) } }))
        .status,
    ).toBe(401);
    expect((await call('GET', `/wallet/v1/devices/${device}/registrations/${PASS_TYPE_IDENTIFIER}`, { key: null })).status).toBe(200);
    expect((await call('GET', `/wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/O-1`, { key: null, headers: apple })).status).toBe(200);
    expect((await call('POST', '/wallet/v1/log', { key: null, body: { logs: ['hello'] } })).status).toBe(200);
    expect((await call('POST', '/wallet/v1/log', { key: null, body: { nope: 1 } })).status).toBe(400);
    expect((await call('DELETE', registration, { key: null, headers: apple })).status).toBe(200);
    // Over a registration cap the answer is 200 with nothing stored; 429 is the rate limit of every /wallet route.
    const register = doc.paths['/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}']!['post'] as unknown as {
      responses: Record<string, { description: string }>;
    };
    expect(register.responses['200']!.description).toMatch(/registration cap/);
    expect(register.responses['429']!.description).toMatch(/rate-limited/);

    // Webhooks and events.
    const hook = await call('POST', '/v1/webhooks', { body: { url: `${receiver.url}/openapi`, secret: 'openapi-secret-0123456789' } });
    expect(hook.status).toBe(201);
    const hookId = hook.body.id as string;
    expect((await call('POST', '/v1/webhooks', { body: { url: 'ftp://example.com' } })).status).toBe(422);
    expect((await call('GET', '/v1/webhooks')).status).toBe(200);
    expect((await call('GET', `/v1/webhooks/${hookId}`)).status).toBe(200);
    expect((await call('POST', `/v1/webhooks/${hookId}/verify`)).status).toBe(200);
    expect((await call('POST', `/v1/webhooks/${hookId}/secret`)).status).toBe(200);
    expect((await call('POST', `/v1/webhooks/${hookId}/secret`, { body: { secret: 'chosen-secret-0123456789' } })).status).toBe(200);
    expect((await call('POST', `/v1/webhooks/${hookId}/secret`, { body: { secret: 'short' } })).status).toBe(422);
    expect((await call('PUT', `/v1/webhooks/${hookId}/events`, { body: { events: ['pass.created', 'pass.updated'] } })).status).toBe(200);
    expect((await call('PUT', `/v1/webhooks/${hookId}/events`, { body: { events: ['nope'] } })).status).toBe(422);
    expect((await call('PUT', `/v1/webhooks/${hookId}/events`, { body: { events: null } })).status).toBe(200);
    const rotation = doc.paths['/v1/webhooks/{id}/secret']!['post'] as unknown as {
      requestBody: { required: boolean; content: Record<string, { schema: { properties: object } }> };
    };
    expect(rotation.requestBody.required).toBe(false);
    expect(Object.keys(rotation.requestBody.content['application/json']!.schema.properties)).toEqual(['secret']);
    expect((await call('PUT', `${pass}/values`, { body: { club: 'Go', name: 'Ada' } })).status).toBe(200);
    await expect.poll(async () => (await call('GET', `/v1/webhooks/${hookId}/deliveries`)).body.items.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const events = await call('GET', '/v1/events?limit=5');
    expect(events.status).toBe(200);
    const eventId = events.body.items[0].id as string;
    expect((await call('GET', `/v1/events/${eventId}`)).status).toBe(200);
    expect((await call('POST', `/v1/events/${eventId}/replay`, { body: {} })).status).toBe(202);
    expect((await call('GET', '/v1/events/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('POST', `/v1/webhooks/${hookId}/disable`)).status).toBe(200);

    // Keys.
    const key = await call('POST', '/v1/keys', { body: { name: 'ci', scopes: ['passes'] } });
    expect(key.status).toBe(201);
    expect((await call('POST', '/v1/keys', { body: { name: '', scopes: ['root'] } })).status).toBe(422);
    expect((await call('GET', '/v1/keys')).status).toBe(200);
    expect((await call('GET', `/v1/keys/${key.body.id}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/keys/${key.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `/v1/keys/${key.body.id}`)).status).toBe(404);
    // The audit log of the changes above, and a bad filter.
    expect((await call('GET', `/v1/audit?action=key.revoke&target=/v1/keys/${key.body.id}`)).body.items).toHaveLength(2);
    expect((await call('GET', '/v1/audit?from=yesterday')).status).toBe(400);

    // Certificates and Google credentials (uploads that are not a certificate or a service account are refused).
    expect((await call('GET', '/v1/certificates')).status).toBe(200);
    expect((await call('POST', '/v1/certificates', { body: { certificate: 'x', privateKey: 'y' } })).body.code).toBe('invalid-certificate');
    expect((await call('GET', '/v1/certificates/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('DELETE', '/v1/certificates/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('POST', '/v1/google/credentials', { body: { serviceAccount: {}, issuerId: '1' } })).body.code).toBe('invalid-body');
    expect((await call('GET', '/v1/google/credentials')).status).toBe(404);
    expect((await call('DELETE', '/v1/google/credentials')).status).toBe(404);

    // Messages, share pages and bundles, stats and a pass's timeline.
    expect((await call('POST', `/v1/templates/${id}/messages`, { body: { header: 'News', body: 'The pool is closed on Monday.' } })).body.code).toBe(
      'no-message-field',
    );
    expect((await call('POST', `/v1/templates/${id}/messages`, { body: { body: 7 } })).status).toBe(422);
    expect((await call('GET', `/v1/templates/${id}/messages`)).status).toBe(200);
    const share = new URL((await call('GET', pass)).body.links.share as string).pathname;
    expect((await call('GET', share, { key: null })).status).toBe(200);
    expect((await call('GET', `${share}/pass.pkpass`, { key: null })).status).toBe(200);
    expect((await call('GET', `${share}/google`, { key: null })).status).toBe(404);
    expect((await call('GET', `/p/images/${id}/${'0'.repeat(64)}/icon.png`, { key: null })).status).toBe(404);
    const bundle = await call('POST', '/v1/bundles', { body: { passes: [{ passTypeIdentifier: PASS_TYPE_IDENTIFIER, serialNumber: 'O-1' }] } });
    expect(bundle.status).toBe(201);
    expect((await call('GET', `${new URL(bundle.body.links.share as string).pathname}/passes.pkpasses`, { key: null })).status).toBe(200);
    expect((await call('POST', '/v1/bundles', { body: { passes: [] } })).status).toBe(422);
    expect((await call('GET', '/v1/stats?interval=day')).status).toBe(200);
    expect((await call('GET', '/v1/stats?interval=fortnight')).status).toBe(400);
    expect((await call('GET', '/v1/stats/overview')).status).toBe(200);
    expect((await call('GET', `${pass}/timeline?limit=5`)).status).toBe(200);

    // Operations, Google, refusals.
    expect((await call('GET', '/healthz', { key: null })).status).toBe(200);
    expect((await call('GET', '/readyz', { key: null })).status).toBe(200);
    expect((await call('GET', '/metrics')).status).toBe(200);
    expect((await call('GET', '/metrics', { key: null })).status).toBe(401);
    expect((await call('GET', '/v1/openapi.json', { key: null })).status).toBe(200);
    expect((await call('POST', '/google/callback', { key: null, body: {} })).status).toBe(404);
    expect((await call('GET', `/google/images/${id}/${'0'.repeat(64)}/icon.png`, { key: null })).status).toBe(404);
    expect((await call('GET', '/v1/passes', { key: null })).status).toBe(401);
    expect((await call('GET', '/v1/passes', { key: 'pm_wrong' })).status).toBe(401);
    expect((await call('DELETE', '/v1/passes')).status).toBe(405);
    expect((await call('DELETE', pass)).status).toBe(204);
    expect((await call('GET', pass)).status).toBe(404);
    expect((await call('DELETE', `/v1/templates/${id}`)).status).toBe(204);
  });

  test('every list documents limit, after and before, and the 400 invalid-query a bad cursor gets', async () => {
    type Parameter = { name: string; in: string };
    type ListOperation = {
      parameters?: Parameter[];
      responses: Record<string, { description: string; content?: Record<string, { schema: { properties?: object } }> }>;
    };
    const lists = Object.entries(doc.paths)
      .map(([path, methods]) => [path, methods['get'] as unknown as ListOperation | undefined] as const)
      .filter(
        ([, get]) =>
          get?.responses['200']?.content?.['application/json']?.schema.properties !== undefined &&
          'next' in get.responses['200'].content['application/json'].schema.properties,
      );
    expect(lists.map(([path]) => path).sort()).toEqual([
      '/v1/audit',
      '/v1/events',
      '/v1/events/{id}',
      '/v1/jobs',
      '/v1/passes',
      '/v1/passes/{type}/{serial}/timeline',
      '/v1/templates',
      '/v1/templates/{id}/messages',
      '/v1/webhooks',
      '/v1/webhooks/{id}/deliveries',
    ]);
    for (const [path, get] of lists) {
      const query = (get!.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
      expect(query, path).toEqual(expect.arrayContaining(['limit', 'after', 'before']));
      expect(get!.responses['400']?.description, path).toMatch(/invalid-query/);
    }
    // Real answers: each is the documented 400 (not only the catch-all `default`).
    for (const path of ['/v1/templates?after=abc', '/v1/passes?before=-1', '/v1/webhooks?after=1&before=2', '/v1/events?after=x', '/v1/events?limit=0']) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.code, path).toBe('invalid-query');
      expect((doc.paths[templateOf(path)!]!['get'] as unknown as ListOperation).responses['400'], path).toBeDefined();
    }
  });

  test('the requests above reached most documented operations', () => {
    const all = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => METHODS.includes(method))
        .map((method) => `${method} ${path}`),
    );
    const missed = all.filter((operation) => !checked.has(operation));
    // Not reachable here without Google's signed callbacks or a rewards pass: the save link's 200, the callback's 200, an image, personalize.
    expect(missed.sort()).toEqual(['post /wallet/v1/passes/{passTypeIdentifier}/{serialNumber}/personalize']);
  });
});
