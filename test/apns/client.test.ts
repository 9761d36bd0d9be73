import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ApnsError } from '../../src/apns/apns-error.js';
import { classifyPush } from '../../src/apns/classify.js';
import { createApnsClient, type ApnsClient, type ApnsClientOptions } from '../../src/apns/client.js';
import { APNS_ORIGINS } from '../../src/apns/hosts.js';
import { PROVIDER_TOKEN_LIFETIME_MS } from '../../src/apns/provider-token.js';
import { apnsPki, KEY_IDENTIFIER, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER, type ApnsPki } from './pki.js';
import { startApnsStandIn, type StandIn, type StandInOptions } from './stand-in.js';

const deviceToken = (n: number): string => n.toString(16).padStart(64, '0');
let pki: ApnsPki;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(() => {
  pki = apnsPki();
});
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

async function setUp(standIn: StandInOptions = {}, client: Partial<ApnsClientOptions> = {}): Promise<{ apns: ApnsClient; server: StandIn }> {
  const server = await startApnsStandIn(pki, standIn);
  const apns = createApnsClient({
    certificate: { cert: pki.passCertPem, key: pki.passKeyPem },
    origin: server.origin,
    ca: pki.caPem,
    ...client,
  } as ApnsClientOptions);
  cleanup.push(
    () => apns.close(),
    () => server.close(),
  );
  return { apns, server };
}

const tokenAuth = () => ({ certificate: undefined, token: { key: pki.tokenKeyPem, keyId: KEY_IDENTIFIER, teamId: TEAM_IDENTIFIER } });

describe('createApnsClient, certificate authentication', () => {
  test('sends POST /3/device/<token> with apns-topic, the {} payload and the Pass Type ID certificate; 200 is sent', async () => {
    const { apns, server } = await setUp();
    const result = await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER);
    expect(result).toEqual({ outcome: 'sent', status: 200, apnsId: '8c1c6b3f-6a7d-4d7e-9b7a-0c2f4b1d9e10' });
    const [push] = server.pushes;
    expect(push?.method).toBe('POST');
    expect(push?.path).toBe(`/3/device/${deviceToken(1)}`);
    expect(push?.headers['apns-topic']).toBe(PASS_TYPE_IDENTIFIER);
    expect(push?.headers['content-type']).toBe('application/json');
    // Apple documents no apns-push-type for passes; none is sent.
    expect(push?.headers['apns-push-type']).toBeUndefined();
    expect(push?.headers['authorization']).toBeUndefined();
    expect(push?.body).toBe('{}');
    expect(push?.certificateUid).toBe(PASS_TYPE_IDENTIFIER);
  });

  test('a certificate from a CA APNs does not trust is refused: 403, rejected', async () => {
    const { apns } = await setUp({}, { certificate: { cert: pki.strangerCertPem, key: pki.strangerKeyPem } });
    expect(await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER)).toMatchObject({ outcome: 'rejected', status: 403, reason: 'MissingProviderToken' });
  });

  test('a topic the certificate is not for is refused: 400 TopicDisallowed, rejected', async () => {
    const { apns } = await setUp();
    expect(await apns.push(deviceToken(1), 'pass.com.example.other')).toMatchObject({ outcome: 'rejected', status: 400, reason: 'TopicDisallowed' });
  });

  test('apns-expiration and apns-id are sent when given', async () => {
    const { apns, server } = await setUp();
    await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER, { expiration: 1_900_000_000, id: '123e4567-e89b-12d3-a456-426614174000' });
    expect(server.pushes[0]?.headers['apns-expiration']).toBe('1900000000');
    expect(server.pushes[0]?.headers['apns-id']).toBe('123e4567-e89b-12d3-a456-426614174000');
  });
});

describe('results are classified as Apple documents them', () => {
  const table: [number, string | undefined, string][] = [
    [200, undefined, 'sent'],
    [400, 'BadDeviceToken', 'gone'],
    [400, 'DeviceTokenNotForTopic', 'gone'],
    [400, 'BadTopic', 'rejected'],
    [403, 'Forbidden', 'rejected'],
    [403, 'BadCertificateEnvironment', 'rejected'],
    [410, 'Unregistered', 'gone'],
    [410, 'ExpiredToken', 'gone'],
    [413, 'PayloadTooLarge', 'rejected'],
    [429, 'TooManyRequests', 'retry'],
    [500, 'InternalServerError', 'retry'],
    [503, 'ServiceUnavailable', 'retry'],
  ];

  test('over the wire: each status and reason from the stand-in gives its outcome', async () => {
    const { apns } = await setUp({
      answer: (push) => {
        const row = table[Number.parseInt(push.pushToken, 16)];
        return { status: row?.[0] ?? 200, ...(row?.[1] === undefined ? {} : { reason: row[1] }) };
      },
    });
    const results = await Promise.all(table.map((_, index) => apns.push(deviceToken(index), PASS_TYPE_IDENTIFIER)));
    expect(results.map((result) => [result.status, result.reason, result.outcome])).toEqual(table);
  });

  test('classifyPush on its own, including answers Apple does not list', () => {
    for (const [status, reason, outcome] of table) expect(classifyPush(status, reason)).toBe(outcome);
    expect(classifyPush(400, undefined)).toBe('rejected');
    expect(classifyPush(404, 'BadPath')).toBe('rejected');
    expect(classifyPush(502, undefined)).toBe('retry');
    expect(classifyPush(302, undefined)).toBe('retry');
  });

  test('a Retry-After on 429 is given back in milliseconds', async () => {
    const { apns } = await setUp({ answer: () => ({ status: 429, reason: 'TooManyRequests', headers: { 'retry-after': '120' } }) });
    expect(await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER)).toMatchObject({ outcome: 'retry', retryAfterMs: 120_000 });
  });

  test('no answer within timeoutMs is retry, with the reason; a token that is not hex is gone without asking APNs', async () => {
    const { apns, server } = await setUp({ answer: () => ({ status: 200, hang: true }) }, { timeoutMs: 200 });
    const result = await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER);
    expect(result.outcome).toBe('retry');
    expect(result.error).toBe('No answer within 200 ms');
    expect(await apns.push('../../x', PASS_TYPE_IDENTIFIER)).toEqual({ outcome: 'gone', reason: 'BadDeviceToken' });
    expect(server.pushes).toHaveLength(1);
  });

  test('a connection refused is retry, not a throw', async () => {
    const { server, apns: _unused } = await setUp();
    const origin = server.origin;
    await server.close();
    const apns = createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.passKeyPem }, origin, ca: pki.caPem });
    cleanup.push(() => apns.close());
    const result = await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER);
    expect(result.outcome).toBe('retry');
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});

describe('connections and concurrency', () => {
  test('one connection serves many pushes; after APNs drops it, the next push opens another', async () => {
    const { apns, server } = await setUp();
    const results = await Promise.all(Array.from({ length: 30 }, (_, index) => apns.push(deviceToken(index), PASS_TYPE_IDENTIFIER)));
    expect(results.every((result) => result.outcome === 'sent')).toBe(true);
    for (let index = 0; index < 5; index++) await apns.push(deviceToken(index), PASS_TYPE_IDENTIFIER);
    expect(server.sessions()).toBe(1);
    server.dropSessions();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await apns.push(deviceToken(99), PASS_TYPE_IDENTIFIER)).outcome).toBe('sent');
    expect(server.sessions()).toBe(2);
  });

  test('never more than `concurrency` pushes in flight, and every push is answered', async () => {
    const { apns, server } = await setUp({ holdMs: 5 }, { concurrency: 3 });
    const results = await Promise.all(Array.from({ length: 12 }, (_, index) => apns.push(deviceToken(index), PASS_TYPE_IDENTIFIER)));
    expect(results.map((result) => result.outcome)).toEqual(Array(12).fill('sent'));
    expect(server.maxInFlight()).toBe(3);
  });

  test('production and development hosts are selectable; origin wins', () => {
    const certificate = { cert: pki.passCertPem, key: pki.passKeyPem };
    expect(createApnsClient({ certificate }).origin).toBe('https://api.push.apple.com');
    expect(createApnsClient({ certificate, environment: 'development' }).origin).toBe('https://api.sandbox.push.apple.com');
    expect(createApnsClient({ certificate, environment: 'development', origin: 'https://127.0.0.1:8443' }).origin).toBe('https://127.0.0.1:8443');
    expect(APNS_ORIGINS).toEqual({ production: 'https://api.push.apple.com', development: 'https://api.sandbox.push.apple.com' });
  });

  test('misuse throws ApnsError with a code; a closed client refuses pushes', async () => {
    const certificate = { cert: pki.passCertPem, key: pki.passKeyPem };
    const code = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return error instanceof ApnsError ? error.code : 'other';
      }
      return 'none';
    };
    expect(code(() => createApnsClient({}))).toBe('invalid-options');
    expect(code(() => createApnsClient({ certificate, token: tokenAuth().token }))).toBe('invalid-options');
    expect(code(() => createApnsClient({ certificate, origin: 'http://127.0.0.1' }))).toBe('invalid-options');
    expect(code(() => createApnsClient({ certificate, concurrency: 0 }))).toBe('invalid-options');
    expect(code(() => createApnsClient({ token: { key: pki.passKeyPem, keyId: KEY_IDENTIFIER, teamId: TEAM_IDENTIFIER } }))).toBe('invalid-key');
    expect(code(() => createApnsClient({ token: { key: 'not a key', keyId: KEY_IDENTIFIER, teamId: TEAM_IDENTIFIER } }))).toBe('invalid-key');
    expect(code(() => createApnsClient({ token: { key: pki.tokenKeyPem, keyId: 'short', teamId: TEAM_IDENTIFIER } }))).toBe('invalid-options');
    expect(code(() => createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.strangerKeyPem } }))).toBe('invalid-key');
    expect(code(() => createApnsClient({ certificate: { cert: 'not a certificate', key: pki.passKeyPem } }))).toBe('invalid-key');
    const apns = createApnsClient({ certificate });
    await apns.close();
    await expect(apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER)).rejects.toMatchObject({ code: 'closed' });
  });
});

describe('token authentication (ES256 provider token)', () => {
  test('sends a valid ES256 token (kid, iss = team, iat), the same one for every push', async () => {
    const { apns, server } = await setUp({}, tokenAuth());
    for (let index = 0; index < 3; index++) expect((await apns.push(deviceToken(index), PASS_TYPE_IDENTIFIER)).outcome).toBe('sent');
    const tokens = server.pushes.map((push) => push.token);
    expect(tokens[0]).toMatchObject({ kid: KEY_IDENTIFIER, iss: TEAM_IDENTIFIER });
    expect(Math.abs((tokens[0]?.iat ?? 0) - Date.now() / 1000)).toBeLessThan(60);
    expect(new Set(tokens.map((token) => token?.raw)).size).toBe(1);
    expect(server.pushes[0]?.certificateUid).toBeUndefined();
  });

  test('a new token after 50 minutes, none before', async () => {
    let time = Date.UTC(2026, 10, 23, 12);
    const { apns, server } = await setUp({}, { ...tokenAuth(), now: () => time });
    await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER);
    time += PROVIDER_TOKEN_LIFETIME_MS - 1000;
    await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER);
    time += 1000;
    await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER);
    const iats = server.pushes.map((push) => push.token?.iat);
    expect(iats).toEqual([time / 1000 - 3000, time / 1000 - 3000, time / 1000]);
    expect(PROVIDER_TOKEN_LIFETIME_MS).toBe(50 * 60 * 1000);
  });

  test('ExpiredProviderToken: a fresh token is made and the push sent again, once', async () => {
    let time = Date.UTC(2026, 10, 23, 12);
    const { apns, server } = await setUp({ tokensValidFrom: time / 1000 + 10 }, { ...tokenAuth(), now: () => time });
    await apns.push(deviceToken(1), PASS_TYPE_IDENTIFIER); // makes the first token at `time`
    time += 20_000;
    const result = await apns.push(deviceToken(2), PASS_TYPE_IDENTIFIER);
    expect(result.outcome).toBe('sent');
    // First push: expired, renewed at the same instant (still expired), not retried twice.
    expect(server.pushes.map((push) => push.pushToken)).toEqual([deviceToken(1), deviceToken(1), deviceToken(2), deviceToken(2)]);
  });
});
