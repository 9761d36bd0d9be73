import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createGoogleWalletClient, GoogleWalletError, readGoogleCredentials, type GoogleWalletClient } from '../../src/google/index.js';
import { testServiceAccount } from './keys.js';
import { startGoogleStandIn, type GoogleStandIn } from './stand-in.js';

const account = testServiceAccount();
const credentials = readGoogleCredentials(account.json);
const issuerId = '3388000000012345678';
const walletClass = { id: `${issuerId}.event` };
const object = { id: `${issuerId}.event.A-1`, classId: walletClass.id, state: 'ACTIVE', cardTitle: { defaultValue: { language: 'en', value: 'Concert' } } };

let standIn: GoogleStandIn;
let clock: number;
let skew: number;
let slept: number[];
let client: GoogleWalletClient;

beforeEach(async () => {
  clock = Date.now();
  skew = 0;
  slept = [];
  standIn = await startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail, now: () => clock + skew });
  client = createGoogleWalletClient({
    credentials,
    baseUrl: standIn.apiUrl,
    tokenUrl: standIn.tokenUrl,
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
});
afterEach(() => standIn.close());

const apiCalls = () => standIn.requests.filter((request) => request.path.startsWith('/walletobjects/'));

describe('createGoogleWalletClient against the stand-in', () => {
  test('insert, get, patch, update and addMessage over real HTTP with one cached token', async () => {
    expect(await client.insert('genericClass', walletClass)).toEqual(walletClass);
    expect(await client.insert('genericObject', object)).toEqual(object);
    expect(await client.get('genericObject', object.id)).toEqual(object);
    expect(await client.patch('genericObject', object.id, { state: 'EXPIRED' })).toMatchObject({
      id: object.id,
      state: 'EXPIRED',
      cardTitle: object.cardTitle,
    });
    expect(await client.update('genericObject', object.id, { id: object.id, classId: walletClass.id, state: 'ACTIVE' })).toEqual({
      id: object.id,
      classId: walletClass.id,
      state: 'ACTIVE',
    });
    const answer = await client.addMessage('genericObject', object.id, { header: 'Gate', body: 'Now B12', messageType: 'TEXT_AND_NOTIFY' });
    expect(answer['resource']).toMatchObject({ messages: [{ header: 'Gate', body: 'Now B12', messageType: 'TEXT_AND_NOTIFY' }] });
    expect(standIn.tokensIssued()).toBe(1);
    expect(apiCalls().every((request) => request.authorization?.startsWith('Bearer ya29.'))).toBe(true);
    expect(apiCalls().map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /walletobjects/v1/genericClass',
      'POST /walletobjects/v1/genericObject',
      `GET /walletobjects/v1/genericObject/${object.id}`,
      `PATCH /walletobjects/v1/genericObject/${object.id}`,
      `PUT /walletobjects/v1/genericObject/${object.id}`,
      `POST /walletobjects/v1/genericObject/${object.id}/addMessage`,
    ]);
  });

  test('the token is renewed shortly before it expires, not before', async () => {
    await client.insert('genericClass', walletClass);
    clock += 50 * 60_000;
    await client.get('genericClass', walletClass.id);
    expect(standIn.tokensIssued()).toBe(1);
    clock += 6 * 60_000; // 56 minutes: within the renewal margin of a one-hour token
    await client.get('genericClass', walletClass.id);
    expect(standIn.tokensIssued()).toBe(2);
  });

  test('a token Google no longer accepts (401) is renewed once and the call repeated', async () => {
    const shortLived = await startGoogleStandIn({
      publicKeyPem: account.publicKeyPem,
      clientEmail: account.clientEmail,
      tokenLifetime: 600,
      now: () => clock + skew,
    });
    try {
      const local = createGoogleWalletClient({ credentials, baseUrl: shortLived.apiUrl, tokenUrl: shortLived.tokenUrl, now: () => clock });
      await local.insert('genericClass', walletClass);
      skew = 700_000; // Google's clock: the cached token has expired, though the client's clock says not yet
      expect(await local.get('genericClass', walletClass.id)).toEqual(walletClass);
      expect(shortLived.tokensIssued()).toBe(2);
      expect(shortLived.requests.filter((request) => request.path.startsWith('/walletobjects/')).map((request) => request.method)).toEqual([
        'POST',
        'GET',
        'GET',
      ]);
    } finally {
      await shortLived.close();
    }
  });

  test('concurrent calls share one token request', async () => {
    await Promise.all([
      client.insert('genericClass', walletClass),
      client.insert('genericClass', { id: `${issuerId}.other` }),
      client.get('genericClass', walletClass.id).catch(() => undefined),
    ]);
    expect(standIn.tokensIssued()).toBe(1);
  });

  test('upsert inserts, and on 409 patches', async () => {
    await client.upsert('genericObject', object);
    const changed = await client.upsert('genericObject', { ...object, state: 'COMPLETED' });
    expect(changed).toMatchObject({ state: 'COMPLETED' });
    expect(standIn.store.get('genericObject')?.get(object.id)).toMatchObject({ state: 'COMPLETED' });
    expect(apiCalls().map((request) => request.method)).toEqual(['POST', 'POST', 'PATCH']);
  });

  test('429 with Retry-After is retried after the wait asked for', async () => {
    standIn.force({ status: 429, retryAfter: '2' }, 2);
    expect(await client.insert('genericClass', walletClass)).toEqual(walletClass);
    expect(slept).toEqual([2000, 2000]);
    expect(apiCalls()).toHaveLength(3);
  });

  test('5xx without Retry-After backs off exponentially, a bounded number of times', async () => {
    standIn.force({ status: 503 }, 10);
    const error = await client.insert('genericClass', walletClass).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'server-error', status: 503 });
    expect(slept).toEqual([500, 1000, 2000]);
    expect(apiCalls()).toHaveLength(4);
  });

  test('a Retry-After beyond a minute is not waited for: rate-limited at once', async () => {
    standIn.force({ status: 429, retryAfter: '3600' });
    await expect(client.insert('genericClass', walletClass)).rejects.toMatchObject({ code: 'rate-limited', status: 429 });
    expect(slept).toEqual([]);
  });

  test('typed errors: 404 not-found, 409 conflict on insert, 401 after a refused token', async () => {
    await expect(client.get('genericObject', 'nope')).rejects.toMatchObject({ code: 'not-found', status: 404 });
    await client.insert('genericClass', walletClass);
    const conflict = await client.insert('genericClass', walletClass).catch((caught: unknown) => caught);
    expect(conflict).toBeInstanceOf(GoogleWalletError);
    expect(conflict).toMatchObject({ code: 'conflict', status: 409 });
    expect((conflict as Error).message).toContain('already exists');
  });

  test('a token the endpoint refuses (another key): token-failed with the reason', async () => {
    const other = readGoogleCredentials(testServiceAccount(true).json);
    const wrong = createGoogleWalletClient({ credentials: other, baseUrl: standIn.apiUrl, tokenUrl: standIn.tokenUrl });
    await expect(wrong.get('genericClass', 'x')).rejects.toMatchObject({ code: 'token-failed', status: 400 });
    expect(standIn.lastTokenError()).toBe('Invalid JWT Signature.');
  });

  test('an answer slower than timeoutMs: timeout', async () => {
    const quick = createGoogleWalletClient({ credentials, baseUrl: standIn.apiUrl, tokenUrl: standIn.tokenUrl, timeoutMs: 200, retries: 0 });
    await quick.get('genericClass', 'warm-up').catch(() => undefined);
    standIn.force({ status: 200, holdMs: 2000 });
    await expect(quick.get('genericClass', walletClass.id)).rejects.toMatchObject({ code: 'timeout' });
  });

  test('an answer over maxBodyBytes: body-too-large', async () => {
    const small = createGoogleWalletClient({ credentials, baseUrl: standIn.apiUrl, tokenUrl: standIn.tokenUrl, maxBodyBytes: 4096 });
    await small.insert('genericClass', walletClass);
    standIn.force({ status: 200, bodyBytes: 100_000 });
    await expect(small.get('genericClass', walletClass.id)).rejects.toMatchObject({ code: 'body-too-large' });
  });

  test('an unknown resource name: invalid-argument, nothing sent', async () => {
    await expect(client.get('ticketObject' as 'genericObject', 'x')).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(standIn.requests).toHaveLength(0);
  });
});
