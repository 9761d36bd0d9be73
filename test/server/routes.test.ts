// The service's routes are declared once: the router's scope check and the
// OpenAPI document both come from the declarations, and named parameters reach
// the handler decoded.
import { describe, expect, test } from 'vitest';
import { ServiceProblem } from '../../src/http/problem.js';
import { type AccessCheck, createRouter } from '../../src/server/http/router.js';
import { API_ROUTES, openApiDocument } from '../../src/server/routes/api.js';
import { defineRoute, type Route } from '../../src/server/routes/define.js';
import { jsonAnswer } from '../../src/server/routes/docs.js';
import { describeApi } from '../../src/server/routes/openapi.js';
import type { Services } from '../../src/server/routes/services.js';

type Operation = { 'x-scope'?: string; security: Record<string, string[]>[]; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> };

const services = {} as Services;

/** What the router answers (a thrown problem as its status, code and headers). */
async function dispatch(routes: readonly Route[], request: Request, authorize: (request: Request, scope: string) => Promise<AccessCheck>) {
  try {
    const response = await createRouter(routes, services, authorize)(request);
    return { status: response.status, body: await response.json() };
  } catch (error) {
    if (!(error instanceof ServiceProblem)) throw error;
    return { status: error.status, code: error.code, headers: error.headers };
  }
}

/** A declared route that answers its parameters. */
const echo = defineRoute({
  method: 'PUT',
  path: '/v1/things/{type}/{path+}',
  auth: 'passes',
  summary: 'Echo',
  responses: { 200: jsonAnswer({ type: 'object' }, 'The parameters.') },
  handler: async ({ params }) => Response.json({ type: params.type, path: params.path }),
});
const read = defineRoute({
  method: 'GET',
  path: '/v1/things/{type}/{path+}',
  auth: 'public',
  summary: 'Read',
  responses: {},
  handler: async ({ params }) => Response.json(params),
});

describe('a route declared with a scope', () => {
  test('is enforced with that scope: the router asks for it and answers 403 with it', async () => {
    const asked: string[] = [];
    const answer = await dispatch([echo], new Request('http://x/v1/things/a/b', { method: 'PUT' }), async (_request, scope) => {
      asked.push(scope);
      return { ok: false, reason: 'forbidden' };
    });
    expect(asked).toEqual(['passes']);
    expect(answer).toEqual({
      status: 403,
      code: 'insufficient-scope',
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="passes"' },
    });
  });

  test('is documented with that scope', () => {
    const doc = describeApi([echo, read]) as { paths: Record<string, Record<string, Operation>> };
    const put = doc.paths['/v1/things/{type}/{path}']!['put']!;
    expect(put['x-scope']).toBe('passes');
    expect(put.security).toEqual([{ apiKey: ['passes'] }]);
    expect(Object.keys(put.responses)).toEqual(['200', '401', '403', '503', 'default']);
    const get = doc.paths['/v1/things/{type}/{path}']!['get']!;
    expect([get['x-scope'], get.security, Object.keys(get.responses)]).toEqual([undefined, [], ['503', 'default']]);
  });

  test('a public route is not checked', async () => {
    const answer = await dispatch([echo, read], new Request('http://x/v1/things/a/b'), async () => expect.fail('no key check for a public route'));
    expect(answer).toEqual({ status: 200, body: { type: 'a', path: 'b' } });
  });
});

describe('named parameters', () => {
  const allow = async (): Promise<AccessCheck> => ({ ok: true });

  test('reach the handler percent-decoded once, a {name+} with its slashes', async () => {
    const answer = await dispatch([echo], new Request('http://x/v1/things/a%2Fb/en.lproj/x%2520y%20z.png', { method: 'PUT' }), allow);
    expect(answer).toEqual({ status: 200, body: { type: 'a/b', path: 'en.lproj/x%20y z.png' } });
  });

  test('are documented from the path, in its order', () => {
    const doc = describeApi([echo]) as { paths: Record<string, Record<string, Operation>> };
    expect(doc.paths['/v1/things/{type}/{path}']!['put']!.parameters).toEqual([
      expect.objectContaining({ name: 'type', in: 'path' }),
      expect.objectContaining({ name: 'path', in: 'path' }),
    ]);
  });

  test('a parameter that is not UTF-8 or holds a control character is 400 invalid-path, after the key check', async () => {
    const asked: string[] = [];
    const check = async (_request: Request, scope: string): Promise<AccessCheck> => {
      asked.push(scope);
      return { ok: true };
    };
    for (const path of ['/v1/things/%ZZ/b', '/v1/things/a/b/%00', '/v1/things/%C3/b']) {
      expect(await dispatch([echo], new Request(`http://x${path}`, { method: 'PUT' }), check)).toMatchObject({ status: 400, code: 'invalid-path' });
    }
    expect(asked).toEqual(['passes', 'passes', 'passes']);
  });

  test('the router checks in order: 414, 404, 405 (with HEAD where GET is), then the key', async () => {
    const refuse = async (): Promise<AccessCheck> => ({ ok: false, reason: 'missing' });
    expect(await dispatch([echo, read], new Request(`http://x/v1/things/a/${'b'.repeat(8200)}`), refuse)).toMatchObject({ status: 414, code: 'uri-too-long' });
    expect(await dispatch([echo, read], new Request('http://x/v1/things/a'), refuse)).toMatchObject({ status: 404, code: 'not-found' });
    expect(await dispatch([echo, read], new Request('http://x/v1/things/a/b', { method: 'DELETE' }), refuse)).toEqual({
      status: 405,
      code: 'method-not-allowed',
      headers: { allow: 'PUT, GET, HEAD' },
    });
    expect(await dispatch([echo, read], new Request('http://x/v1/things/a/b', { method: 'PUT' }), refuse)).toMatchObject({
      status: 401,
      code: 'missing-credentials',
    });
  });
});

describe("the service's routes", () => {
  const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>> };

  test.each([
    ['GET', '/v1/passes', 'read'],
    ['GET', '/v1/webhooks/{id}/deliveries', 'read'],
    ['POST', '/v1/templates/{id}/passes', 'passes'],
    ['PUT', '/v1/passes/{type}/{serial}/values', 'passes'],
    ['DELETE', '/v1/passes/{type}/{serial}', 'passes'],
    ['POST', '/v1/templates', 'admin'],
    ['PUT', '/v1/templates/{id}/files/{path}', 'admin'],
    ['POST', '/v1/webhooks/{id}/secret', 'admin'],
    ['POST', '/v1/events/{id}/replay', 'admin'],
    ['GET', '/v1/keys', 'admin'],
    ['GET', '/v1/keys/{id}', 'admin'],
  ])('%s %s needs %s', (method, path, scope) => {
    expect(API_ROUTES.find((route) => route.method === method && route.pattern.template === path)?.scope).toBe(scope);
  });

  test('every route the router checks a key for asks for the scope its operation documents, and answers 403 naming it', async () => {
    const checked = API_ROUTES.filter((route) => route.scope !== undefined);
    expect(checked.length).toBeGreaterThan(20);
    for (const route of checked) {
      const path = route.pattern.template.replace(/\{[^}]+\}/g, 'x');
      const asked: string[] = [];
      const answer = await dispatch(API_ROUTES, new Request(`http://x${path}`, { method: route.method }), async (_request, scope) => {
        asked.push(scope);
        return { ok: false, reason: 'forbidden' };
      });
      const documented = doc.paths[route.pattern.template]![route.method.toLowerCase()]!;
      expect([route.method, path, asked, documented['x-scope'], documented.security]).toEqual([
        route.method,
        path,
        [route.scope],
        route.scope,
        [{ apiKey: [route.scope] }],
      ]);
      expect(answer).toMatchObject({ status: 403, code: 'insufficient-scope' });
    }
  });

  test('a route the router does not check documents how it is opened instead', () => {
    const open = API_ROUTES.filter((route) => route.scope === undefined).map((route) => {
      const operation = doc.paths[route.pattern.template]![route.method.toLowerCase()]!;
      return `${route.method} ${route.pattern.template} ${JSON.stringify(operation.security)}`;
    });
    expect(open).toEqual([
      'GET /v1/templates/{id} [{"apiKey":["read"]}]',
      'GET /v1/passes/{type}/{serial}/passjson [{"apiKey":["read"]}]',
      'GET /v1/passes/{type}/{serial}/pkpass [{"apiKey":["read"]},{"passToken":[]}]',
      'GET /v1/openapi.json []',
      'GET /healthz []',
      'GET /readyz []',
      'GET /metrics [{"apiKey":["read"]},{"metricsToken":[]}]',
      'GET /v1/passes/{type}/{serial}/google [{"apiKey":["read"]},{"passToken":[]}]',
      'POST /google/callback []',
      'GET /google/images/{template}/{hash}/{path} []',
      // The share pages: whoever holds the link (128 random bits) opens them, as a pass's download link.
      'GET /p/{id} []',
      'GET /p/{id}/pass.pkpass []',
      'GET /p/{id}/passes.pkpasses []',
      'GET /p/{id}/google []',
      'GET /p/images/{template}/{hash}/{path} []',
    ]);
  });

  test('a path parameter without a description is refused when the document is made', () => {
    const undescribed = defineRoute({
      method: 'GET',
      path: '/v1/x/{nameless}',
      auth: 'read',
      summary: 'X',
      responses: {},
      handler: async () => new Response(),
    });
    expect(() => describeApi([undescribed])).toThrow('The path parameter nameless of /v1/x/{nameless} is not described');
  });

  test('a method declared twice for one path is refused when the router is made', () => {
    expect(() => createRouter([echo, echo], services, async () => ({ ok: true }))).toThrow('PUT /v1/things/{type}/{path+} is declared twice');
  });
});
