import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { bearerAuth } from '../../src/http/bearer-auth.js';
import { createPassHandler } from '../../src/http/handler.js';
import type { Pass, PassTemplate } from '../../src/types.js';
import { apiKey, makePass, makeTemplate, previousApiKey } from './fixtures.js';
import { serve, type Served } from './serve.js';

const passType = 'pass.com.example.member';
const knownSerials = ['E5982H-I2', 'a b', 'a/b', 'caf\u00e9 \u{1F39F}', '100%', '%2F', '..', '../../etc/passwd', '1'];

const passCalls: [string, string][] = [];
const templateCalls: number[] = [];
const errors: unknown[] = [];

const handler = createPassHandler({
  authenticate: bearerAuth([apiKey, previousApiKey]),
  findPass: (passTypeIdentifier, serialNumber) => {
    passCalls.push([passTypeIdentifier, serialNumber]);
    if (serialNumber === 'throws') throw new Error('database password is hunter2');
    if (serialNumber === 'rejects') return Promise.reject(new Error('connection to 10.0.0.7 refused'));
    if (serialNumber === 'bigint') return { ...makePass(passTypeIdentifier, serialNumber), userInfo: { n: 1n } };
    if (serialNumber === 'slow') return new Promise((resolve) => setTimeout(() => resolve(makePass(passType, 'slow')), 50));
    if (passTypeIdentifier === passType && knownSerials.includes(serialNumber)) return makePass(passTypeIdentifier, serialNumber);
    return serialNumber === 'null' ? null : undefined;
  },
  findTemplate: async (id) => {
    templateCalls.push(id);
    if (id === 500) throw new TypeError('Cannot read properties of undefined (reading "rows")');
    return id <= 100 || id === Number.MAX_SAFE_INTEGER ? makeTemplate(id) : undefined;
  },
  onError: (error) => {
    errors.push(error);
  },
});

let served: Served;
beforeAll(async () => {
  served = await serve(handler);
});
afterAll(async () => {
  await served.close();
});
beforeEach(() => {
  passCalls.length = 0;
  templateCalls.length = 0;
  errors.length = 0;
});

const auth = { authorization: `Bearer ${apiKey}` };

function call(path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(served.origin + path, { method: init.method ?? 'GET', headers: init.headers ?? auth });
}

function passPath(serialNumber: string, type = passType): string {
  return `/v1/passes/${encodeURIComponent(type)}/${encodeURIComponent(serialNumber)}/passjson`;
}

async function expectProblem(response: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const text = await response.text();
  expect(response.headers.get('content-length')).toBe(String(new TextEncoder().encode(text).length));
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body).toMatchObject({ type: `https://passmint.dev/problems/${code}`, status, code });
  expect(typeof body['title']).toBe('string');
  expect(typeof body['detail']).toBe('string');
  expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
  return body;
}

/** Sends a request line exactly as written, bypassing every URL parser on the client side. */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: served.port, path, method: 'GET', headers: auth }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Writes a request line byte for byte (as Latin-1) and returns the status line and problem code. */
function rawRequestLine(target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(served.port, '127.0.0.1', () => {
      socket.end(Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nConnection: close\r\n\r\n`, 'latin1'));
    });
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('close', () => resolve(`${data.split('\r\n')[0]} ${/"code":"([^"]+)"/.exec(data)?.[1] ?? '-'}`));
    socket.on('error', reject);
  });
}

describe('200', () => {
  test('a pass comes back as JSON with a strong ETag', async () => {
    const response = await call(passPath('E5982H-I2'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('vary')).toBe('Accept');
    const text = await response.text();
    expect(response.headers.get('content-length')).toBe(String(new TextEncoder().encode(text).length));
    expect(JSON.parse(text)).toEqual(makePass(passType, 'E5982H-I2'));
    expect(passCalls).toEqual([[passType, 'E5982H-I2']]);
  });

  test('a template comes back as JSON', async () => {
    const response = await call('/v1/templates/7');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await response.json()) as PassTemplate).toEqual(makeTemplate(7));
    expect(templateCalls).toEqual([7]);
  });

  test('the ETag is the SHA-256 of the body bytes and stable across requests', async () => {
    const first = await call('/v1/templates/7');
    const second = await call('/v1/templates/7');
    const bytes = new Uint8Array(await first.arrayBuffer());
    const digest = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('base64url');
    expect(first.headers.get('etag')).toBe(`"${digest}"`);
    expect(second.headers.get('etag')).toBe(`"${digest}"`);
    expect((await call('/v1/templates/8')).headers.get('etag')).not.toBe(`"${digest}"`);
  });

  test('a query string is ignored', async () => {
    const response = await call('/v1/templates/7?fields=name#top');
    expect(response.status).toBe(200);
    expect(templateCalls).toEqual([7]);
  });

  test('the largest safe template id reaches findTemplate as a number', async () => {
    const response = await call('/v1/templates/9007199254740991');
    expect(response.status).toBe(200);
    expect(templateCalls).toEqual([9007199254740991]);
  });

  test('Accept values that include JSON are served', async () => {
    for (const accept of [
      '*/*',
      'application/*',
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/html, application/json;q=0.1',
      '*/*;q=0, application/json',
      'application/json;q=0, application/*;q=0, application/json;q=0.5',
      'text/html;q=0.9, */*;q=0.001',
      'gibberish',
    ]) {
      const response = await call('/v1/templates/7', { headers: { ...auth, accept } });
      expect([accept, response.status]).toEqual([accept, 200]);
    }
  });
});

describe('HEAD', () => {
  test('is GET without a body, with the same headers', async () => {
    const get = await call(passPath('a b'));
    const head = await call(passPath('a b'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    for (const name of ['content-type', 'content-length', 'etag', 'cache-control', 'vary']) {
      expect([name, head.headers.get(name)]).toEqual([name, get.headers.get(name)]);
    }
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await head.text()).toBe('');
  });

  test('answers problems without a body too', async () => {
    const head = await call('/v1/templates/abc', { method: 'HEAD' });
    expect(head.status).toBe(400);
    expect(head.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(50);
    expect(await head.text()).toBe('');
    const unauthorized = await call('/v1/templates/1', { method: 'HEAD', headers: {} });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('304', () => {
  test('a matching If-None-Match gives 304 with the ETag and no body', async () => {
    const etag = (await call('/v1/templates/7')).headers.get('etag') ?? '';
    const opaque = etag.slice(1, -1);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, `W/"x",W/${etag}`, '*', ` ${etag} `]) {
      const response = await call('/v1/templates/7', { headers: { ...auth, 'if-none-match': ifNoneMatch } });
      expect([ifNoneMatch, response.status]).toEqual([ifNoneMatch, 304]);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
      expect(await response.text()).toBe('');
    }
    for (const ifNoneMatch of ['"other"', opaque, `"${opaque}x"`, `"x${opaque}"`, 'W/', '"unterminated', `, junk ${etag}`]) {
      const response = await call('/v1/templates/7', { headers: { ...auth, 'if-none-match': ifNoneMatch } });
      expect([ifNoneMatch, response.status]).toEqual([ifNoneMatch, 200]);
    }
  });

  test('HEAD with a matching If-None-Match gives 304', async () => {
    const etag = (await call(passPath('a/b'))).headers.get('etag') ?? '';
    const response = await call(passPath('a/b'), { method: 'HEAD', headers: { ...auth, 'if-none-match': etag } });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(etag);
  });

  test('If-None-Match never turns an error into 304', async () => {
    await expectProblem(await call(passPath('nobody'), { headers: { ...auth, 'if-none-match': '*' } }), 404, 'pass-not-found');
    await expectProblem(await call('/v1/templates/7', { headers: { 'if-none-match': '*' } }), 401, 'missing-credentials');
  });
});

describe('400', () => {
  test.each(['0', '-1', '1.5', '1e3', '9999999999999999999', 'abc', '01', '+1', '0x10', '9007199254740992', '%20', '1%00', '%zz'])(
    'template id %j is invalid-template-id',
    async (id) => {
      await expectProblem(await call(`/v1/templates/${id}`), 400, 'invalid-template-id');
      expect(templateCalls).toEqual([]);
    },
  );

  test('an id is percent-decoded once: %31 is 1', async () => {
    expect((await call('/v1/templates/%31')).status).toBe(200);
    expect(templateCalls).toEqual([1]);
  });

  test.each(['%', '%zz', 'a%2', '%C0%AF', '%ED%A0%80', '%FF'])('serial number %j is invalid-path', async (serial) => {
    await expectProblem(await call(`/v1/passes/${passType}/${serial}/passjson`), 400, 'invalid-path');
    await expectProblem(await call(`/v1/passes/${serial}/x/passjson`), 400, 'invalid-path');
    expect(passCalls).toEqual([]);
  });

  test('authentication comes before the id check', async () => {
    await expectProblem(await call('/v1/templates/abc', { headers: {} }), 401, 'missing-credentials');
  });
});

describe('401', () => {
  test('no credentials: WWW-Authenticate: Bearer', async () => {
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }, { authorization: 'Bearer   ' }]) {
      const response = await call(passPath('E5982H-I2'), { headers });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      await expectProblem(response, 401, 'missing-credentials');
    }
    expect(passCalls).toEqual([]);
  });

  test('a wrong key: error="invalid_token"', async () => {
    for (const key of ['wrong', apiKey.slice(0, -1), `${apiKey}x`, apiKey.toUpperCase(), `${apiKey} ${apiKey}`]) {
      const response = await call('/v1/templates/1', { headers: { authorization: `Bearer ${key}` } });
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      await expectProblem(response, 401, 'invalid-credentials');
    }
    expect(templateCalls).toEqual([]);
  });

  test('every listed key is accepted, with any case of the scheme', async () => {
    for (const authorization of [`Bearer ${apiKey}`, `Bearer ${previousApiKey}`, `bearer ${apiKey}`, `BEARER  ${apiKey}`]) {
      expect((await call('/v1/templates/1', { headers: { authorization } })).status).toBe(200);
    }
  });
});

describe('404', () => {
  test.each([
    '/',
    '/v1',
    '/v1/passes',
    '/v1/passes/x/passjson',
    `/v1/passes/${passType}/passjson`,
    `/v1/passes/${passType}//passjson`,
    '/v1/passes//1/passjson',
    `/v1/passes/${passType}/1/passjson/`,
    `/v1/passes/${passType}/1/pass.json`,
    `/v1/passes/${passType}/a/b/passjson`,
    '/v1/templates',
    '/v1/templates/',
    '/v1/templates/1/',
    '/v1/templates/1/extra',
    '/v2/templates/1',
    '/V1/templates/1',
    '/v1/%74emplates/1',
    '/api/v1/templates/1',
  ])('%s is not-found, before authentication', async (path) => {
    await expectProblem(await call(path, { headers: {} }), 404, 'not-found');
  });

  test('a path outside the routes is 404 whatever the method', async () => {
    await expectProblem(await call('/v1/other', { method: 'DELETE', headers: {} }), 404, 'not-found');
  });

  test('an unknown pass is pass-not-found, whether the lookup gives undefined or null', async () => {
    const body = await expectProblem(await call(passPath('nobody')), 404, 'pass-not-found');
    expect(body['detail']).toBe(`No pass with serial number "nobody" and type "${passType}" exists.`);
    await expectProblem(await call(passPath('null')), 404, 'pass-not-found');
  });

  test('an unknown template is template-not-found', async () => {
    const body = await expectProblem(await call('/v1/templates/404'), 404, 'template-not-found');
    expect(body['detail']).toBe('No template with id 404 exists.');
  });

  test('an unknown pass is 404 even when Accept excludes JSON', async () => {
    await expectProblem(await call(passPath('nobody'), { headers: { ...auth, accept: 'text/html' } }), 404, 'pass-not-found');
  });
});

describe('405', () => {
  test.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('%s gets Allow: GET, HEAD, before authentication', async (method) => {
    for (const path of [passPath('E5982H-I2'), '/v1/templates/1', '/v1/templates/abc']) {
      const response = await call(path, { method, headers: {} });
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      await expectProblem(response, 405, 'method-not-allowed');
    }
    expect(passCalls).toEqual([]);
  });
});

describe('406', () => {
  test.each(['text/html', 'application/json;q=0', 'application/json;q=0, */*', 'application/xml, text/*', 'application/problem+json', 'image/*;q=1, */*;q=0'])(
    'Accept %j is not-acceptable',
    async (accept) => {
      await expectProblem(await call('/v1/templates/7', { headers: { ...auth, accept } }), 406, 'not-acceptable');
    },
  );
});

describe('414', () => {
  const huge = `/v1/passes/${passType}/${'x'.repeat(100_000)}/passjson`;

  test('a 100 KB path is uri-too-long, before any lookup', async () => {
    const big = await serve(handler, { maxHeaderSize: 256 * 1024 });
    try {
      const response = await fetch(big.origin + huge, { headers: auth });
      await expectProblem(response, 414, 'uri-too-long');
      expect(passCalls).toEqual([]);
    } finally {
      await big.close();
    }
  });

  test('behind node:http defaults, Node itself refuses it with 431', async () => {
    expect((await fetch(served.origin + huge, { headers: auth })).status).toBe(431);
  });

  test('a path of exactly 8192 characters is still routed', async () => {
    const prefix = `/v1/passes/${passType}/`;
    const path = prefix + 'y'.repeat(8192 - prefix.length - '/passjson'.length) + '/passjson';
    expect(path.length).toBe(8192);
    await expectProblem(await handler(new Request(`http://localhost${path}`, { headers: auth })), 404, 'pass-not-found');
    await expectProblem(await handler(new Request(`http://localhost${path}z`, { headers: auth })), 414, 'uri-too-long');
  });
});

describe('500', () => {
  test.each(['throws', 'rejects', 'bigint'])('a lookup that %s gives internal-error with nothing of the error', async (serial) => {
    const response = await call(passPath(serial));
    const body = await expectProblem(response, 500, 'internal-error');
    expect(body['detail']).toBe('The server could not answer this request.');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(Error);
  });

  test('a failing template lookup shows no message or stack', async () => {
    const response = await call('/v1/templates/500');
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toMatch(/rows|TypeError|at |\.ts/);
    expect(errors).toHaveLength(1);
  });

  test('an authenticate that throws or rejects gives 500, and so does a throwing onError', async () => {
    for (const authenticate of [
      () => {
        throw new Error('auth backend down');
      },
      () => Promise.reject(new Error('auth backend down')),
    ]) {
      const failing = createPassHandler({
        authenticate,
        findPass: () => undefined,
        findTemplate: () => undefined,
        onError: () => {
          throw new Error('logger down');
        },
      });
      await expectProblem(await failing(new Request('http://localhost/v1/templates/1')), 500, 'internal-error');
    }
  });

  test('a circular result gives 500 and a rejecting onError is not left unhandled', async () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    const failing = createPassHandler({
      authenticate: () => true,
      findPass: () => circular as unknown as Pass,
      findTemplate: () => undefined,
      onError: () => Promise.reject(new Error('async logger down')) as unknown as void,
    });
    await expectProblem(await failing(new Request('http://localhost/v1/passes/a/b/passjson')), 500, 'internal-error');
  });
});

describe('serial numbers round-trip exactly', () => {
  // ".." cannot travel in a URL: see the two dot-segment tests below.
  test.each(knownSerials.filter((serial) => serial !== '..'))('%j', async (serial) => {
    const response = await call(passPath(serial));
    expect(response.status).toBe(200);
    expect(((await response.json()) as Pass).serialNumber).toBe(serial);
    expect(passCalls).toEqual([[passType, serial]]);
  });

  test('%2F inside a segment is a slash inside the value, %252F is the text %2F', async () => {
    expect((await call(`/v1/passes/${passType}/a%2Fb/passjson`)).status).toBe(200);
    expect((await call(`/v1/passes/${passType}/%252F/passjson`)).status).toBe(200);
    expect((await call(`/v1/passes/${passType}/..%2F..%2Fetc%2Fpasswd/passjson`)).status).toBe(200);
    expect(passCalls).toEqual([
      [passType, 'a/b'],
      [passType, '%2F'],
      [passType, '../../etc/passwd'],
    ]);
  });

  test('raw spaces and Unicode in the request line are decoded like their percent-encoded forms', async () => {
    const response = await call(`/v1/passes/${passType}/caf\u00e9 \u{1F39F}/passjson`);
    expect(response.status).toBe(200);
    expect(passCalls).toEqual([[passType, 'caf\u00e9 \u{1F39F}']]);
  });

  test('a literal .. segment is resolved by the URL parser before the handler, never by it', async () => {
    // node:http sends the path as written; the adapter's WHATWG URL parsing removes the dot-segment.
    const response = await rawGet(`/v1/passes/${passType}/../passjson`);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'not-found' });
    expect((await rawGet(`/v1/passes/${passType}/%2E%2E/passjson`)).status).toBe(404);
    expect(passCalls).toEqual([]);
  });

  test('a request whose URL still holds .. (a lightweight runtime request) reaches findPass as ".."', async () => {
    const request = {
      method: 'GET',
      url: `http://localhost/v1/passes/${passType}/../passjson`,
      headers: new Headers(auth),
    } as unknown as Request;
    const response = await handler(request);
    expect(response.status).toBe(200);
    expect(passCalls).toEqual([[passType, '..']]);
  });
});

describe('basePath', () => {
  test.each(['/api', 'api', '/api/', 'api//', '//api'])('%j serves under /api only', async (basePath) => {
    const based = createPassHandler({
      authenticate: () => true,
      findPass: (type, serial) => makePass(type, serial),
      findTemplate: (id) => makeTemplate(id),
      basePath,
    });
    expect((await based(new Request('http://localhost/api/v1/templates/3'))).status).toBe(200);
    expect((await based(new Request(`http://localhost/api/v1/passes/${passType}/a%2Fb/passjson`))).status).toBe(200);
    for (const path of ['/v1/templates/3', '/apiv1/templates/3', '/api', '/api/', '/apix/v1/templates/3', '/API/v1/templates/3']) {
      await expectProblem(await based(new Request(`http://localhost${path}`)), 404, 'not-found');
    }
  });

  test.each(['', '/', '//'])('%j is no prefix', async (basePath) => {
    const based = createPassHandler({
      authenticate: () => true,
      findPass: () => undefined,
      findTemplate: (id) => makeTemplate(id),
      basePath,
    });
    expect((await based(new Request('http://localhost/v1/templates/3'))).status).toBe(200);
  });
});

describe('robustness', () => {
  test('whatever it is given, the handler resolves to a response', async () => {
    const inputs: unknown[] = [
      undefined,
      null,
      {},
      { url: 42, method: 'GET' },
      { url: 'http://localhost/v1/templates/1', method: 'GET' },
      {
        get url(): string {
          throw new Error('getter');
        },
        get method(): string {
          throw new Error('getter');
        },
      },
    ];
    for (const input of inputs) {
      const response = await handler(input as Request);
      expect(response.status).toBe(500);
    }
  });

  test('odd but valid URLs get proper statuses', async () => {
    const cases: [string, number][] = [
      ['/v1/templates/1;x=1', 400],
      ['/v1/passes/%00/%00/passjson', 404],
      ['/v1/passes/\\/x/passjson', 404],
      ['/%2e%2e/v1/templates/1', 200],
      ['/v1/templates/%2e%2e/1', 404],
      [`/v1/passes/${passType}/${'%25'.repeat(2000)}/passjson`, 404],
      [`/${'a/'.repeat(3000)}`, 404],
    ];
    for (const [path, status] of cases) {
      const response = await handler(new Request(`http://localhost${path}`, { headers: auth }));
      expect([path, response.status]).toEqual([path, status]);
    }
  });

  test('request lines that are not valid HTTP are refused before or by the handler, never crash it', async () => {
    const cases: [string, string][] = [
      // Node's parser: raw non-ASCII, spaces and control characters are not HTTP.
      [`/v1/passes/${passType}/caf\xc3\xa9/passjson`, 'HTTP/1.1 400 Bad Request -'],
      [`/v1/passes/${passType}/a b/passjson`, 'HTTP/1.1 400 Bad Request -'],
      [`/v1/passes/${passType}/a\x00b/passjson`, 'HTTP/1.1 400 Bad Request -'],
      // The adapter refuses a backslash in the path.
      [`/v1/passes/${passType}/a\\b/passjson`, 'HTTP/1.1 400 Bad Request -'],
      // Everything else reaches the handler.
      [`/v1/passes/${passType}/%zz/passjson`, 'HTTP/1.1 400 Bad Request invalid-path'],
      ['//v1/templates/1', 'HTTP/1.1 404 Not Found not-found'],
      [`http://127.0.0.1/v1/passes/${passType}/a%20b/passjson`, 'HTTP/1.1 200 OK -'],
    ];
    for (const [target, expected] of cases) {
      expect([target, await rawRequestLine(target)]).toEqual([target, expected]);
    }
    expect(passCalls).toEqual([[passType, 'a b']]);
  });

  test('constructing a handler with missing functions is a TypeError', () => {
    const options = { authenticate: () => true, findPass: () => undefined, findTemplate: () => undefined };
    expect(() => createPassHandler({ ...options, authenticate: undefined as never })).toThrow(TypeError);
    expect(() => createPassHandler({ ...options, findPass: 'x' as never })).toThrow(TypeError);
    expect(() => createPassHandler({ ...options, findTemplate: null as never })).toThrow(TypeError);
    expect(() => createPassHandler({ ...options, basePath: 1 as never })).toThrow(TypeError);
    expect(() => createPassHandler({ ...options, onError: 1 as never })).toThrow(TypeError);
  });
});
