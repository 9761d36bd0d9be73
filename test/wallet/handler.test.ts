import { describe, expect, test } from 'vitest';
import { createWalletHandler } from '../../src/wallet/handler.js';
import { createMemoryWalletStore } from '../../src/wallet/memory-store.js';
import type { WalletStore } from '../../src/wallet/store.js';
import {
  applePass,
  authenticationToken,
  deviceLibraryIdentifier,
  lastModified,
  passPath,
  passTypeIdentifier,
  pkpassBytes,
  pushToken,
  register,
  registrationPath,
  request,
  serialNumber,
  serialsPath,
  walletFixture,
} from './fixtures.js';

const problemOf = async (response: Response) => {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as { code: string; status: number; detail: string };
};

describe('register (POST /v1/devices/{device}/registrations/{type}/{serial})', () => {
  test('201 for a new registration, 200 for the same again; registration.created once, with the identifiers', async () => {
    const { handler, store, events } = walletFixture();
    expect((await handler(register())).status).toBe(201);
    expect((await handler(register())).status).toBe(200);
    expect(await store.registrationsOf(passTypeIdentifier, serialNumber)).toEqual([{ deviceLibraryIdentifier, passTypeIdentifier, serialNumber, pushToken }]);
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['registration.created', { serialNumber, passTypeIdentifier, deviceLibraryIdentifier, wallet: 'apple' }],
    ]);
    expect(events[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('the same registration arriving many times at once: one 201, the rest 200, one registration.created', async () => {
    const { handler, events } = walletFixture();
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => handler(register())))).map((response) => response.status);
    expect(statuses.sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(events.map((event) => event.type)).toEqual(['registration.created']);
  });

  test('a push token in capitals is stored in lower case', async () => {
    const { handler, store } = walletFixture();
    expect((await handler(register(registrationPath, pushToken.toUpperCase()))).status).toBe(201);
    expect((await store.registrationsOf(passTypeIdentifier, serialNumber))[0]?.pushToken).toBe(pushToken);
  });

  test('401 without the ApplePass header, with a wrong token, another scheme, or for a pass that does not exist', async () => {
    const { handler, store, events } = walletFixture();
    const body = JSON.stringify({ pushToken });
    const answers = await Promise.all([
      handler(request('POST', registrationPath, { body })),
      handler(register(registrationPath, pushToken, 'wrong-token')),
      handler(register(registrationPath, pushToken, authenticationToken + 'x')),
      handler(request('POST', registrationPath, { headers: { authorization: `Bearer ${authenticationToken}` }, body })),
      handler(register(`/v1/devices/${deviceLibraryIdentifier}/registrations/${passTypeIdentifier}/unknown`)),
    ]);
    expect(answers.map((response) => response.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.map((response) => response.headers.get('www-authenticate'))).toEqual(Array(5).fill('ApplePass'));
    expect((await problemOf(answers[0]!)).code).toBe('missing-credentials');
    expect((await problemOf(answers[1]!)).code).toBe('invalid-credentials');
    expect((await problemOf(answers[4]!)).code).toBe('invalid-credentials');
    expect(await store.registrationsOf(passTypeIdentifier, serialNumber)).toEqual([]);
    expect(events).toEqual([]);
  });

  test('400 invalid-json for a body that is not JSON, 400 invalid-push-token for a push token that is not hex', async () => {
    const { handler } = walletFixture();
    const post = (body: string) => handler(request('POST', registrationPath, { headers: applePass(), body }));
    for (const body of ['', '{', 'pushToken=abc', '\u00ff\u00fe', '{"pushToken": "ab"']) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect((await problemOf(response)).code).toBe('invalid-json');
    }
    for (const body of [
      '{}',
      '[]',
      'null',
      '"x"',
      '{"pushToken": 12}',
      '{"pushToken": "../../etc/passwd"}',
      '{"pushToken": "abcdef"}',
      `{"pushToken": "${'a'.repeat(257)}"}`,
      '{"__proto__": {"pushToken": "abcdefabcdefabcdef"}}',
    ]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect((await problemOf(response)).code).toBe('invalid-push-token');
    }
    expect(({} as Record<string, unknown>)['pushToken']).toBeUndefined();
  });

  test('413 body-too-large for a body over maxBodyBytes, declared or streamed', async () => {
    const { handler } = walletFixture({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ pushToken, padding: 'x'.repeat(2000) });
    const declared = await handler(request('POST', registrationPath, { headers: { ...applePass(), 'content-length': String(big.length) }, body: big }));
    expect(declared.status).toBe(413);
    expect((await problemOf(declared)).code).toBe('body-too-large');
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(512).fill(0x20));
      },
    });
    const streamed = await handler(
      new Request(`https://passes.example.com${registrationPath}`, { method: 'POST', headers: applePass(), body: stream, duplex: 'half' } as RequestInit),
    );
    expect(streamed.status).toBe(413);
  });
});

describe('serials (GET /v1/devices/{device}/registrations/{type})', () => {
  test('204 when nothing changed, 200 with lastUpdated and the serial when it did, then 204 from that tag', async () => {
    const { handler, store } = walletFixture();
    await handler(register());
    const first = await handler(request('GET', serialsPath));
    expect(first.status).toBe(200);
    const all = (await first.json()) as { lastUpdated: string; serialNumbers: string[] };
    expect(all.serialNumbers).toEqual([serialNumber]);
    expect((await handler(request('GET', `${serialsPath}?passesUpdatedSince=${all.lastUpdated}`))).status).toBe(204);

    await store.markUpdated(passTypeIdentifier, serialNumber);
    const changed = await handler(request('GET', `${serialsPath}?passesUpdatedSince=${all.lastUpdated}`));
    expect(changed.status).toBe(200);
    expect(changed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await changed.json()) as { lastUpdated: string; serialNumbers: string[] };
    expect(body.serialNumbers).toEqual([serialNumber]);
    expect(BigInt(body.lastUpdated) > BigInt(all.lastUpdated)).toBe(true);
    expect((await handler(request('GET', `${serialsPath}?passesUpdatedSince=${body.lastUpdated}`))).status).toBe(204);
  });

  test('needs no authentication; an unknown device gets 204; an empty or unreadable tag counts as none', async () => {
    const { handler } = walletFixture();
    await handler(register());
    expect((await handler(request('GET', `/v1/devices/unknown/registrations/${passTypeIdentifier}`))).status).toBe(204);
    for (const query of ['?passesUpdatedSince=', '?passesUpdatedSince=%zz', '?passesUpdatedSince=abc', '?x=1']) {
      const response = await handler(request('GET', serialsPath + query));
      expect(response.status).toBe(200);
      expect(((await response.json()) as { serialNumbers: string[] }).serialNumbers).toEqual([serialNumber]);
    }
  });
});

describe('latest pass (GET /v1/passes/{type}/{serial})', () => {
  test('200 with the .pkpass and Last-Modified; 304 for If-Modified-Since at or after it; 200 again for an earlier date', async () => {
    const { handler } = walletFixture();
    const response = await handler(request('GET', passPath, { headers: applePass() }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    expect(response.headers.get('last-modified')).toBe('Mon, 23 Nov 2026 09:30:15 GMT');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pkpassBytes);

    const same = await handler(request('GET', passPath, { headers: { ...applePass(), 'if-modified-since': 'Mon, 23 Nov 2026 09:30:15 GMT' } }));
    expect(same.status).toBe(304);
    expect(same.headers.get('last-modified')).toBe('Mon, 23 Nov 2026 09:30:15 GMT');
    expect(await same.text()).toBe('');
    const later = await handler(request('GET', passPath, { headers: { ...applePass(), 'if-modified-since': 'Monday, 23-Nov-26 10:00:00 GMT' } }));
    expect(later.status).toBe(304);
    const earlier = await handler(request('GET', passPath, { headers: { ...applePass(), 'if-modified-since': 'Mon Nov 23 09:30:14 2026' } }));
    expect(earlier.status).toBe(200);
    // An unreadable date is ignored (RFC 9110 §13.1.3): the pass is sent.
    const garbage = await handler(request('GET', passPath, { headers: { ...applePass(), 'if-modified-since': 'yesterday' } }));
    expect(garbage.status).toBe(200);
  });

  test('HEAD gives the headers without the body; the pass is built only when it is sent', async () => {
    let built = 0;
    const { handler } = walletFixture({
      findPass: () => ({ authenticationToken, lastModified: new Date(lastModified), pkpass: () => (built++, pkpassBytes) }),
    });
    const head = await handler(request('HEAD', passPath, { headers: applePass() }));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(pkpassBytes.length));
    expect(await head.text()).toBe('');
    await handler(request('GET', passPath, { headers: { ...applePass(), 'if-modified-since': 'Mon, 23 Nov 2026 09:30:15 GMT' } }));
    await handler(register());
    expect(built).toBe(1);
  });

  test('401 with a wrong token or none; the pass is not sent', async () => {
    const { handler } = walletFixture();
    expect((await handler(request('GET', passPath))).status).toBe(401);
    const wrong = await handler(request('GET', passPath, { headers: applePass('nope') }));
    expect(wrong.status).toBe(401);
    expect((await problemOf(wrong)).code).toBe('invalid-credentials');
  });
});

describe('unregister (DELETE …/registrations/{type}/{serial}) and log (POST /v1/log)', () => {
  test('200 and registration.deleted once; 200 again without an event; 401 with a wrong token', async () => {
    const { handler, store, events } = walletFixture();
    await handler(register());
    expect((await handler(request('DELETE', registrationPath, { headers: applePass('x'.repeat(20)) }))).status).toBe(401);
    expect((await handler(request('DELETE', registrationPath, { headers: applePass() }))).status).toBe(200);
    expect((await handler(request('DELETE', registrationPath, { headers: applePass() }))).status).toBe(200);
    expect(await store.registrationsOf(passTypeIdentifier, serialNumber)).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(['registration.created', 'registration.deleted']);
    expect(events[1]?.data).toEqual({ serialNumber, passTypeIdentifier, deviceLibraryIdentifier, wallet: 'apple' });
  });

  test('logs: 200 and onLog gets the messages; 400 invalid-logs for another shape; 400 invalid-json', async () => {
    const { handler, logs } = walletFixture();
    const post = (body: string) => handler(request('POST', '/v1/log', { body }));
    expect((await post(JSON.stringify({ logs: ['Web service error for pass.com.example.member (https://x): 401'] }))).status).toBe(200);
    expect(logs).toEqual([['Web service error for pass.com.example.member (https://x): 401']]);
    for (const body of ['{}', '{"logs": "x"}', '{"logs": [1]}', JSON.stringify({ logs: Array(1001).fill('x') })]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect((await problemOf(response)).code).toBe('invalid-logs');
    }
    expect((await post('{"logs": [')).status).toBe(400);
  });
});

describe('routing, hostile requests and failures', () => {
  test('404 outside the routes, 405 with Allow for another method, 414 for a huge path', async () => {
    const { handler } = walletFixture();
    const cases: [string, string, number, string | null][] = [
      ['GET', '/', 404, null],
      ['GET', '/v1', 404, null],
      ['GET', '/v1/passes/a', 404, null],
      ['GET', '/v1/passes/a/b/c', 404, null],
      ['GET', '/v1/devices/d/registrations', 404, null],
      ['GET', '/v1/devices//registrations/t', 404, null],
      ['GET', '/v2/log', 404, null],
      ['GET', '/v1/log', 405, 'POST'],
      ['PUT', registrationPath, 405, 'POST, DELETE'],
      ['GET', registrationPath, 405, 'POST, DELETE'],
      ['POST', serialsPath, 405, 'GET, HEAD'],
      ['DELETE', passPath, 405, 'GET, HEAD'],
      ['OPTIONS', passPath, 405, 'GET, HEAD'],
    ];
    for (const [method, path, status, allow] of cases) {
      const response = await handler(request(method, path));
      expect([method, path, response.status]).toEqual([method, path, status]);
      expect(response.headers.get('allow')).toBe(allow);
    }
    expect((await handler(request('GET', `/v1/passes/${'a'.repeat(9000)}/b`))).status).toBe(414);
  });

  test('400 invalid-path for broken percent-encoding, encoded control characters and over-long parameters; %2F is a character', async () => {
    const { handler, passes, store } = walletFixture();
    for (const segment of ['%zz', '%', '%C0%AF', '%ED%A0%80', '%00', 'a%0Ab', 'x'.repeat(1025)]) {
      const response = await handler(request('GET', `/v1/passes/${passTypeIdentifier}/${segment}`, { headers: applePass() }));
      expect([segment, response.status]).toEqual([segment, 400]);
      expect((await problemOf(response)).code).toBe('invalid-path');
    }
    passes.set(`${passTypeIdentifier}/a/b`, { authenticationToken, lastModified, pkpass: pkpassBytes });
    expect((await handler(request('GET', `/v1/passes/${passTypeIdentifier}/a%2Fb`, { headers: applePass() }))).status).toBe(200);
    // Decoded once: %252F is the three characters %2F, not a slash.
    expect((await handler(request('GET', `/v1/passes/${passTypeIdentifier}/a%252Fb`, { headers: applePass() }))).status).toBe(401);
    expect((await handler(register(`/v1/devices/%E2%9C%93/registrations/${passTypeIdentifier}/${serialNumber}`))).status).toBe(201);
    expect((await store.registrationsOf(passTypeIdentifier, serialNumber))[0]?.deviceLibraryIdentifier).toBe('✓');
  });

  test('mounted under a base path: served there, 404 elsewhere', async () => {
    const { handler } = walletFixture({ basePath: 'wallet/' });
    expect((await handler(register(`/wallet${registrationPath}`))).status).toBe(201);
    expect((await handler(register())).status).toBe(404);
    expect((await handler(register(`/walletx${registrationPath}`))).status).toBe(404);
  });

  test('a store or lookup that throws gives a 500 problem that shows nothing; onError hears of it', async () => {
    const errors: unknown[] = [];
    const failing: WalletStore = {
      ...createMemoryWalletStore(),
      register: () => Promise.reject(new Error('secret internal detail')),
      updatedSince: () => {
        throw new Error('secret internal detail');
      },
    };
    const { handler } = walletFixture({ onError: (error) => void errors.push(error) }, failing);
    for (const response of [await handler(register()), await handler(request('GET', serialsPath))]) {
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toMatch(/secret|Error|at /);
      expect(JSON.parse(text)).toMatchObject({ code: 'internal-error', status: 500 });
    }
    expect(errors).toHaveLength(2);
    const throwingLookup = walletFixture({ findPass: () => Promise.reject(new Error('secret')) }).handler;
    expect((await throwingLookup(request('GET', passPath, { headers: applePass() }))).status).toBe(500);
  });

  test('an onEvent that throws does not undo the registration: 201, and onError hears of it', async () => {
    const errors: unknown[] = [];
    const { handler, store } = walletFixture({
      onEvent: () => Promise.reject(new Error('outbox down')),
      onError: (error) => void errors.push(error),
    });
    expect((await handler(register())).status).toBe(201);
    expect(await store.registrationsOf(passTypeIdentifier, serialNumber)).toHaveLength(1);
    expect(errors.map(String)).toEqual(['Error: outbox down']);
  });

  test('options are checked when the handler is made', () => {
    const store = createMemoryWalletStore();
    expect(() => createWalletHandler({ store, findPass: 1 as never })).toThrow(TypeError);
    expect(() => createWalletHandler({ store: undefined as never, findPass: () => undefined })).toThrow(TypeError);
    expect(() => createWalletHandler({ store, findPass: () => undefined, maxBodyBytes: 0 })).toThrow(TypeError);
    expect(() => createWalletHandler({ store, findPass: () => undefined, onEvent: 'x' as never })).toThrow(TypeError);
  });
});
