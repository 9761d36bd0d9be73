// Two services on one PostgreSQL share the Google Wallet queue: changes made
// through either reach Google once synced by whichever claims them, each
// object ends with its pass's last values, and nothing is left owed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { testServiceAccount } from '../google/keys.js';
import { startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { createPostgresDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

const ISSUER = '3388000000012345678';
const PASS_TYPE = 'pass.com.example.shared';

describe('Google Wallet with two services on one PostgreSQL', () => {
  const account = testServiceAccount();
  let database: { url: string; drop: () => Promise<void> };
  let connections: SqlDatabase[] = [];
  let services: Service[] = [];
  let standIn: GoogleStandIn;

  beforeAll(async () => {
    [database, standIn] = await Promise.all([
      createPostgresDatabase(),
      startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail }),
    ]);
    connections = [await openPostgres({ connectionString: database.url }), await openPostgres({ connectionString: database.url })];
    const google = { credentials: readGoogleCredentials(account.json), issuerId: ISSUER, apiUrl: standIn.apiUrl, tokenUrl: standIn.tokenUrl };
    services = [];
    for (const db of connections) services.push(await startService({ db, url: database.url, dispose: async () => undefined }, { google }));
  });
  afterAll(async () => {
    for (const service of services) await service.close();
    for (const db of connections) await db.close();
    await standIn?.close();
    await database?.drop();
  });

  test("every object ends with its pass's last values, whichever process synced it", async () => {
    const [a, b] = services as [Service, Service];
    const { body: template } = await a.call('POST', '/v1/templates', {
      name: 'Shared',
      formatVersion: 1,
      passType: PASS_TYPE,
      description: { generic: { primaryFields: [{ key: 'n', label: 'N', value: '${n}' }] } },
      placeholder: ['n'],
    });
    const serials = Array.from({ length: 6 }, (_, index) => `S-${index}`);
    for (const serial of serials)
      expect((await a.call('POST', `/v1/templates/${template.id}/passes`, { values: { n: 'v0' }, serialNumber: serial })).status).toBe(201);
    const last = new Map<string, string>();
    await Promise.all(
      serials.map(async (serial, index) => {
        for (let change = 1; change <= 8; change++) {
          const service = (index + change) % 2 === 0 ? a : b;
          const value = `${serial}-v${change}`;
          expect((await service.call('PUT', `/v1/passes/${PASS_TYPE}/${serial}/values`, { n: value })).status).toBe(200);
          last.set(serial, value);
        }
      }),
    );
    const objectOf = (serial: string): string =>
      JSON.stringify(standIn.store.get('genericObject')?.get(`${ISSUER}.pass_2ecom_2eexample_2eshared.${serial}`) ?? null);
    await eventually(() => serials.every((serial) => objectOf(serial).includes(JSON.stringify(last.get(serial)))), 20_000, 'every object with its last value');
    await eventually(
      async () => (await connections[0]!.query<{ n: number }>('select count(*)::int as n from passmint_google_jobs where wanted > done'))[0]!.n === 0,
      10_000,
      'nothing owed',
    );
    // Both processes synced objects: each has its own OAuth token.
    const tokens = new Set(standIn.requests.filter((request) => request.path.includes('/genericObject')).map((request) => request.authorization));
    expect(tokens.size).toBe(2);
  });
});
