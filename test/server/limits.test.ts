// What one pass holder or one client can make the service do, tried as an
// abuser would: each limit answers its own status and code, stores nothing
// past its cap, and adds no event.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PassSigner } from '../../src/pkpass/signer.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = {
  name: 'Member card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: {
    backgroundColor: 'rgb(20, 40, 60)',
    generic: { primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }] },
  },
  placeholder: ['name'],
};

const pushToken = (digit: string): string => digit.repeat(64);

for (const engine of ENGINES) {
  describe(`limits of the service on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let signatures = 0;
    let templateId: number;

    beforeAll(async () => {
      const pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      // Counts the signatures made, to show the cache at work.
      const counting: PassSigner = { ...signer, sign: (content, options) => (signatures++, signer.sign(content, options)) };
      database = await engine.open();
      service = await startService(database, {
        signer: counting,
        limits: { maxRegistrationsPerPass: 2, maxRegistrationsPerDevice: 3, ratePerToken: 6, ratePerAddress: 0, maxTemplateFiles: 3, maxTemplateBytes: 4096 },
      });
      templateId = (await service.call('POST', '/v1/templates', template)).body.id as number;
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/icon.png`, png(29, 29))).status).toBe(201);
    });

    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    const newPass = async (serialNumber: string): Promise<{ token: string; download: string }> => {
      const made = await service.call('POST', `/v1/templates/${templateId}/passes`, { serialNumber, values: { name: 'Ada' } });
      expect(made.status).toBe(201);
      const download = made.body.links.pkpass as string;
      return { token: new URL(download).searchParams.get('token')!, download };
    };

    const register = async (device: string, serialNumber: string, token: string, push = pushToken('a')): Promise<number> => {
      const response = await fetch(`${service.url}/wallet/v1/devices/${device}/registrations/${PASS_TYPE_IDENTIFIER}/${serialNumber}`, {
        method: 'POST',
        headers: { authorization: `ApplePass ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pushToken: push }),
      });
      return response.status;
    };

    const events = async (type: string, serialNumber: string): Promise<number> => {
      const rows = await database.db.query<{ body: string }>('select body from passmint_events where type = $1', [type]);
      return rows.filter((row) => (JSON.parse(row.body) as { data: { serialNumber: string } }).data.serialNumber === serialNumber).length;
    };

    // A download's event is written in the background, in order: once a later download's event is in, so are the earlier ones.
    let markers = 0;
    const downloadsWritten = async (): Promise<void> => {
      const serial = `MARK-${++markers}`;
      expect((await fetch((await newPass(serial)).download)).status).toBe(200);
      await expect.poll(() => events('pass.downloaded', serial), { timeout: 10_000 }).toBe(1);
    };

    const registrations = async (where: 'serial_number' | 'device_library_identifier', value: string): Promise<number> => {
      const rows = await database.db.query<{ n: number }>(`select count(*)::int as n from passmint_wallet_registrations where ${where} = $1`, [value]);
      return rows[0]!.n;
    };

    test('registrations per pass are capped: past the cap a device is answered 200, nothing is stored, no event', async () => {
      const { token } = await newPass('CAP-PASS');
      expect(await register('device-a1', 'CAP-PASS', token)).toBe(201);
      expect(await register('device-a2', 'CAP-PASS', token)).toBe(201);
      expect(await register('device-a3', 'CAP-PASS', token)).toBe(200);
      expect(await register('device-a4', 'CAP-PASS', token)).toBe(200);
      expect(await registrations('serial_number', 'CAP-PASS')).toBe(2);
      expect(await events('registration.created', 'CAP-PASS')).toBe(2);
      // A registered device may register again: it replaces its push token, and adds no event.
      expect(await register('device-a1', 'CAP-PASS', token, pushToken('b'))).toBe(200);
      const [row] = await database.db.query<{ push_token: string }>(
        `select push_token from passmint_wallet_registrations where device_library_identifier = 'device-a1' and serial_number = 'CAP-PASS'`,
      );
      expect(row!.push_token).toBe(pushToken('b'));
      expect(await events('registration.created', 'CAP-PASS')).toBe(2);
    });

    test('registrations per device are capped the same way', async () => {
      const passes = await Promise.all(['DEV-1', 'DEV-2', 'DEV-3', 'DEV-4'].map(async (serial) => ({ serial, ...(await newPass(serial)) })));
      const statuses: number[] = [];
      for (const pass of passes) statuses.push(await register('device-b', pass.serial, pass.token));
      expect(statuses).toEqual([201, 201, 201, 200]);
      expect(await registrations('device_library_identifier', 'device-b')).toBe(3);
      expect(await events('registration.created', 'DEV-4')).toBe(0);
    });

    test('concurrent registrations of one pass cannot pass the cap together', async () => {
      const { token } = await newPass('RACE');
      const statuses = await Promise.all(['r1', 'r2', 'r3', 'r4', 'r5'].map((device) => register(`device-${device}`, 'RACE', token)));
      expect(statuses.filter((status) => status === 201)).toHaveLength(2);
      expect(await registrations('serial_number', 'RACE')).toBe(2);
      expect(await events('registration.created', 'RACE')).toBe(2);
    });

    test('a pass token past its rate is answered 429 rate-limited with Retry-After, on the download link and on /wallet', async () => {
      const { token, download } = await newPass('RATE');
      const statuses: number[] = [];
      for (let index = 0; index < 6; index++) statuses.push((await fetch(download)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      const refused = await fetch(download);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(((await refused.json()) as { code: string }).code).toBe('rate-limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // The same bucket: Apple's web service with the pass's token.
      const wallet = await fetch(`${service.url}/wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/RATE`, { headers: { authorization: `ApplePass ${token}` } });
      expect([wallet.status, ((await wallet.json()) as { code: string }).code]).toEqual([429, 'rate-limited']);
      // And the Google Wallet save link with the token.
      const google = await fetch(`${service.url}/v1/passes/${PASS_TYPE_IDENTIFIER}/RATE/google?token=${encodeURIComponent(token)}`);
      expect([google.status, ((await google.json()) as { code: string }).code]).toEqual([429, 'rate-limited']);
      // The API key's own calls are not limited.
      expect((await service.call('GET', '/v1/passes/' + PASS_TYPE_IDENTIFIER + '/RATE/pkpass')).status).toBe(200);
    });

    test('downloads of one version by one client add one pass.downloaded, and sign once; a new version is signed and reported again', async () => {
      const { download } = await newPass('REPEAT');
      const before = signatures;
      const first = new Uint8Array(await (await fetch(download)).arrayBuffer());
      const second = new Uint8Array(await (await fetch(download)).arrayBuffer());
      const third = new Uint8Array(await (await fetch(download)).arrayBuffer());
      expect(second).toEqual(first);
      expect(third).toEqual(first);
      expect(signatures - before).toBe(1);
      await downloadsWritten();
      expect(await events('pass.downloaded', 'REPEAT')).toBe(1);
      const signedBefore = signatures;

      expect((await service.call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/REPEAT/values`, { name: 'Grace' })).status).toBe(200);
      const updated = new Uint8Array(await (await fetch(download)).arrayBuffer());
      expect(updated).not.toEqual(first);
      expect(signatures - signedBefore).toBe(1);
      await downloadsWritten();
      expect(await events('pass.downloaded', 'REPEAT')).toBe(2);
    });

    test('a template file past the count limit is 422 too-many-files; past the total size 413 bundle-too-large; nothing changes', async () => {
      const id = (await service.call('POST', '/v1/templates', template)).body.id as number;
      const files = `/v1/templates/${id}/files`;
      for (const name of ['icon.png', 'icon@2x.png', 'logo.png']) expect((await service.call('PUT', `${files}/${name}`, png(29, 29))).status).toBe(201);
      const version = async () => (await database.db.query<{ version: number }>('select version from passmint_templates where id = $1', [id]))[0]!.version;
      const before = await version();
      const tooMany = await service.call('PUT', `${files}/thumbnail.png`, png(29, 29));
      expect([tooMany.status, tooMany.body.code]).toEqual([422, 'too-many-files']);
      expect(tooMany.body.detail).toContain('at most 3 files');
      // Replacing a file does not count it twice.
      expect((await service.call('PUT', `${files}/logo.png`, png(30, 30))).status).toBe(201);
      // A PNG with 5000 bytes after its image: more than 4096 bytes with the others.
      const tooLarge = await service.call('PUT', `${files}/logo.png`, new Uint8Array([...png(29, 29), ...new Uint8Array(5000)]));
      expect([tooLarge.status, tooLarge.body.code]).toEqual([413, 'bundle-too-large']);
      expect(tooLarge.body.detail).toContain('4096 bytes');
      expect((await service.call('GET', files)).body.items.map((item: { path: string }) => item.path)).toEqual(['icon.png', 'icon@2x.png', 'logo.png']);
      expect(await version()).toBe(before + 1);
    });

    test('a serial number with a lone surrogate is refused at creation with a located 422; a whole pair is kept exactly through an update', async () => {
      const lone = await service.call('POST', `/v1/templates/${templateId}/passes`, { serialNumber: 'M-\ud800-1', values: { name: 'Ada' } });
      expect([lone.status, lone.body.code]).toEqual([422, 'invalid-body']);
      expect(lone.body.issues).toEqual([expect.objectContaining({ code: 'unsafe-serial-number', path: '/serialNumber' })]);
      expect(await database.db.query(`select 1 from passmint_passes where serial_number like 'M-%'`)).toEqual([]);

      const serial = 'M-\u{1F600}-1';
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { serialNumber: serial, values: { name: 'Ada' } })).status).toBe(201);
      const path = `/v1/passes/${PASS_TYPE_IDENTIFIER}/${encodeURIComponent(serial)}`;
      expect((await service.call('PUT', `${path}/values`, { name: 'Grace' })).body.serialNumber).toBe(serial);
      expect((await service.call('GET', `${path}/passjson`)).body.serialNumber).toBe(serial);

      const badType = await service.call('POST', '/v1/templates', { ...template, passType: 'pass.com.example.\udc00' });
      expect([badType.status, badType.body.issues[0].path]).toEqual([422, '/passType']);
    });
  });
}

describe('the rate per client address', () => {
  let database: TestDatabase;
  let service: Service;

  beforeAll(async () => {
    database = await ENGINES[0]!.open();
    service = await startService(database, { limits: { ratePerAddress: 3 } });
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test("past it, Apple's web service answers 429 rate-limited with Retry-After; the API key's routes are not limited", async () => {
    const log = () => fetch(`${service.url}/wallet/v1/log`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"logs":["x"]}' });
    const statuses: number[] = [];
    for (let index = 0; index < 3; index++) statuses.push((await log()).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await log();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('rate-limited');
    // 3 a minute: the next token comes in 20 s.
    expect(refused.headers.get('retry-after')).toBe('20');
    expect((await service.call('GET', '/v1/templates')).status).toBe(200);
  });
});

describe('the rate per client address behind a proxy (trustProxy)', () => {
  let database: TestDatabase;
  let service: Service;

  beforeAll(async () => {
    database = await ENGINES[0]!.open();
    service = await startService(database, { limits: { ratePerAddress: 1, trustProxy: true } });
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test('the address is the last X-Forwarded-For entry: each client has its own bucket', async () => {
    const log = (forwarded: string) =>
      fetch(`${service.url}/wallet/v1/log`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
        body: '{"logs":[]}',
      });
    expect((await log('198.51.100.1, 203.0.113.1')).status).toBe(200);
    expect((await log('198.51.100.2, 203.0.113.2')).status).toBe(200);
    // A different first entry (which a client may write) does not make a new client.
    expect((await log('192.0.2.99, 203.0.113.1')).status).toBe(429);
  });
});
