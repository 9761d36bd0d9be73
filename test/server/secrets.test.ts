// Secrets at rest: a dump of the database (pg_dump; PGlite's data folder, file by file) holds none of the secrets
// uploaded or registered, in any encoding; a webhook secret stored in clear before is sealed at start; a restart
// with the same key signs, with another is refused; `passmint serve secrets rotate` re-wraps them for a new key.
import { execFile } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createServer, type PassmintServer, type ServerOptions } from '../../src/server/create-server.js';
import { migrate } from '../../src/server/db/schema.js';
import type { LogEntry } from '../../src/server/http/log.js';
import { openPglite } from '../../src/server/db/pglite.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import { receiveWebhook, respondToVerification } from '../../src/webhooks/index.js';
import { captureIo } from '../cli/io.js';
import {
  FIRST_TEAM,
  FIRST_TYPE,
  issuePass,
  p12Of,
  SECOND_TEAM,
  SECOND_TYPE,
  signerSubject,
  subjectLine,
  templateOf,
  type PassIdentity,
} from './certificate-kit.js';
import { createPostgresDatabase, ENGINES } from './databases.js';
import { startService, type Service } from './harness.js';

const exec = promisify(execFile);
const P12_PASSWORD = 'p12-export-pw-6f1c9e';
const WEBHOOK_SECRET = 'whsec-chosen-3b7d0a92c4e1f58a';
const LEGACY_SECRET = 'legacy-clear-secret-9a8b7c6d';

/** Every way a secret's bytes could sit in a dump: the text, DER, base64 (start and middle), hex either case. */
function needles(secret: string | Uint8Array): string[] {
  const bytes = Buffer.from(secret);
  const base64 = bytes.toString('base64');
  const hex = bytes.toString('hex');
  const middle = Math.floor(bytes.length / 2);
  return [
    ...(typeof secret === 'string'
      ? [secret.slice(0, 40)]
      : [bytes.subarray(0, 32).toString('latin1'), bytes.subarray(middle, middle + 32).toString('latin1')]),
    base64.slice(0, 40),
    base64.slice(Math.floor(base64.length / 2) & ~3, (Math.floor(base64.length / 2) & ~3) + 40),
    hex.slice(0, 48),
    hex.slice(0, 48).toUpperCase(),
    hex.slice(middle * 2, middle * 2 + 48),
  ];
}

/** A private key's PEM lines and its DER. */
function keyNeedles(pem: string): string[] {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const der = Buffer.from(body, 'base64');
  return [...needles(new Uint8Array(der)), pem.split('\n')[3]!];
}

/** A Google service account's key file, with a fresh RSA key. */
function serviceAccount(): { json: Record<string, string>; privateKeyPem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  return {
    json: {
      type: 'service_account',
      project_id: 'example',
      private_key_id: 'k1',
      private_key: privateKeyPem,
      client_email: 'wallet@example.iam.gserviceaccount.com',
    },
    privateKeyPem,
  };
}

/** A service of its own (createServer opens the database), with a helper like the harness's. */
async function start(where: ServerOptions, secretKey: string): Promise<Service> {
  const server: PassmintServer = await createServer({ ...where, secretKey, delivery: { allowPrivateNetworks: true, pollMs: 25 }, onError: () => undefined });
  const key = server.firstApiKey ?? (await server.addApiKey());
  const { url } = await server.listen(0);
  return {
    server,
    url,
    key,
    async call(method, path, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body) }),
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      return {
        status: response.status,
        headers: response.headers,
        bytes,
        body: (response.headers.get('content-type') ?? '').includes('json') && text !== '' ? JSON.parse(text) : text,
      };
    },
    close: () => server.close(),
  };
}

/** A receiver that checks every signature (the handshake's too) against `secret`, and answers the handshake. */
async function startCheckingReceiver(secret: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer((request, response) => {
    void (async () => {
      try {
        const answer = respondToVerification(await receiveWebhook(request, secret));
        if (answer) return response.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
        response.writeHead(204).end();
      } catch {
        response.writeHead(401).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function folderBytes(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    parts.push(statSync(path).isDirectory() ? folderBytes(path) : readFileSync(path));
  }
  return Buffer.concat(parts);
}

// Both engines' tests use the same two identities (made once: an RSA key each).
let identities: Promise<[PassIdentity, PassIdentity]> | undefined;

for (const engine of ['pglite', 'postgres'] as const) {
  describe(`secrets at rest on ${engine}`, () => {
    let where: ServerOptions;
    /** pg_dump, or on PGlite its equivalent (every row of every table as text); and on PGlite the data folder's files too. */
    let dump: () => Promise<Buffer>;
    let files: () => Buffer = () => Buffer.alloc(0);
    let cleanup: () => Promise<void>;
    const dir = mkdtempSync(join(tmpdir(), 'passmint-secrets-'));
    const key = randomBytes(32).toString('base64');
    let first: PassIdentity;
    let second: PassIdentity;

    beforeAll(async () => {
      identities ??= Promise.all([issuePass(FIRST_TYPE, FIRST_TEAM), issuePass(SECOND_TYPE, SECOND_TEAM)]);
      [first, second] = await identities;
      if (engine === 'pglite') {
        const dataDir = join(dir, 'data');
        where = { dataDir };
        dump = async () => {
          const db = await openPglite({ dataDir });
          try {
            const tables = await db.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
            const rows = [];
            for (const { name } of tables) rows.push(...(await db.query<{ row: string }>(`select t::text as row from ${name} t`)).map((row) => row.row));
            return Buffer.from(rows.join('\n'), 'latin1');
          } finally {
            await db.close();
          }
        };
        files = () => folderBytes(dataDir);
        cleanup = async () => undefined;
      } else {
        const { url, drop } = await createPostgresDatabase();
        where = { databaseUrl: url };
        dump = async () => (await exec('pg_dump', ['--inserts', url], { maxBuffer: 256 << 20, encoding: 'buffer' })).stdout;
        cleanup = drop;
      }
      // A webhook registered before secrets were sealed: its secret in clear, as older versions stored it.
      const db = engine === 'pglite' ? await openPglite(where) : await openPostgres({ connectionString: where.databaseUrl! });
      await migrate(db);
      await db.query(`insert into passmint_webhooks (id, url, secret, state) values ($1, 'http://127.0.0.1:9/old', $2, 'enabled')`, [
        crypto.randomUUID(),
        LEGACY_SECRET,
      ]);
      await db.close();
    });

    afterAll(async () => {
      await cleanup?.();
      rmSync(dir, { recursive: true, force: true });
    });

    test('no secret in a dump; the same key signs after a restart, another is refused; rotation moves every secret to a new key', async () => {
      const google = serviceAccount();
      let service = await start(where, key);
      let pkpassLink: string;
      try {
        expect((await service.call('POST', '/v1/certificates', { certificate: first.certPem, privateKey: first.keyPem, wwdr: first.pki.wwdrPem })).status).toBe(
          201,
        );
        expect((await service.call('POST', '/v1/certificates', { p12: await p12Of(second, P12_PASSWORD), password: P12_PASSWORD })).status).toBe(201);
        expect((await service.call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', secret: WEBHOOK_SECRET })).status).toBe(201);
        const credentials = await service.call('POST', '/v1/google/credentials', { serviceAccount: google.json, issuerId: '3388000000012345678' });
        expect(credentials.status).toBe(201);
        expect(credentials.body).toMatchObject({ issuerId: '3388000000012345678', clientEmail: 'wallet@example.iam.gserviceaccount.com', active: false });
        const template = await templateOf(service, FIRST_TYPE);
        pkpassLink = (await service.call('POST', `/v1/templates/${template.id}/passes`, { values: { n: 'one' }, serialNumber: 'S-1' })).body.links.pkpass;
      } finally {
        await service.close();
      }

      const bytes = (await dump()).toString('latin1');
      const raw = files().toString('latin1');
      expect(bytes).toContain('pm1:'); // the sealed values are there…
      const secrets = {
        'first private key': keyNeedles(first.keyPem),
        'second private key': keyNeedles(second.keyPem),
        'Google private key': keyNeedles(google.privateKeyPem),
        'p12 password': needles(P12_PASSWORD),
        'webhook secret': needles(WEBHOOK_SECRET),
        'legacy webhook secret': needles(LEGACY_SECRET),
        'secret key': needles(new Uint8Array(Buffer.from(key, 'base64'))),
      };
      // …and none of the secrets, in any encoding.
      for (const [name, list] of Object.entries(secrets)) {
        for (const needle of list) {
          expect(bytes.includes(needle), `${name}: ${needle}`).toBe(false);
          // The files never held what was sealed before it was stored (the legacy secret was written in clear, before).
          if (name !== 'legacy webhook secret') expect(raw.includes(needle), `${name} in the files: ${needle}`).toBe(false);
        }
      }

      // The same key: it signs, with the uploaded certificate; the uploaded Google credentials are in use.
      service = await start(where, key);
      try {
        const download = await fetch(pkpassLink.replace(/^http:\/\/[^/]+/, service.url));
        expect(download.status).toBe(200);
        expect(await signerSubject(new Uint8Array(await download.arrayBuffer()), first)).toBe(await subjectLine(first));
        expect((await service.call('GET', '/v1/google/credentials')).body.active).toBe(true);
      } finally {
        await service.close();
      }

      // Another key: refused at start, saying which key the secrets are under.
      const other = randomBytes(32).toString('base64');
      await expect(start(where, other)).rejects.toThrow(/is not the one this database's secrets are sealed under/);

      // Rotation to a new key; then the new key signs and the old one is refused.
      const newKeyFile = join(dir, 'new.key');
      writeFileSync(newKeyFile, `${other}\n`, { mode: 0o600 });
      const capture = captureIo(dir, { PASSMINT_SECRET_KEY: key });
      const args = engine === 'pglite' ? ['--data', where.dataDir!] : ['--database-url', where.databaseUrl!];
      expect(await run(['serve', 'secrets', 'rotate', '--new-key-file', newKeyFile, ...args], capture.io)).toBe(0);
      expect(capture.stdout()).toMatch(/^Re-wrapped 2 private key\(s\), 2 webhook secret\(s\) and 1 Google account\(s\) from key \S+ to \S+\.\n/);
      service = await start(where, other);
      try {
        const download = await fetch(pkpassLink.replace(/^http:\/\/[^/]+/, service.url));
        expect(await signerSubject(new Uint8Array(await download.arrayBuffer()), first)).toBe(await subjectLine(first));
      } finally {
        await service.close();
      }
    });
  });
}

describe('the secret key by default', () => {
  test('a PGlite folder without one gets its own (0600), said once in the log; it opens the secrets at the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'passmint-folder-key-'));
    try {
      const log: LogEntry[] = [];
      let server = await createServer({ dataDir, log: (entry) => log.push(entry), onError: () => undefined });
      await server.close();
      const path = join(dataDir, 'passmint-secret.key');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(log.filter((entry) => entry.type === 'secret-key').map((entry) => entry['message'])).toEqual([
        expect.stringContaining(`Made a secret key in ${path} (0600)`),
      ]);
      server = await createServer({ dataDir, log: (entry) => log.push(entry), onError: () => undefined });
      await server.close();
      expect(log.filter((entry) => entry.type === 'secret-key')).toHaveLength(1);
      // Another key for the same folder: refused.
      await expect(createServer({ dataDir, secretKey: randomBytes(32), onError: () => undefined })).rejects.toThrow(
        /not the one this database's secrets are sealed under/,
      );
      // …and by the command, saying what to do.
      const capture = captureIo(dataDir, { PASSMINT_SECRET_KEY: randomBytes(32).toString('base64') });
      expect(await run(['serve', '--data', dataDir, '--port', '0'], capture.io)).toBe(1);
      expect(capture.stderr()).toMatch(
        /^passmint serve: The secret key given \(\S+\) is not the one this database's secrets are sealed under \(\S+\): start with that key/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a service on PostgreSQL without a secret key', () => {
  test('stores no secret (409 secret-key-missing saying how to set the key, no row written or changed); a secret stored in clear before still signs, and a start with a key seals it', async () => {
    const database = await ENGINES[1]!.open();
    const receiver = await startCheckingReceiver(LEGACY_SECRET);
    // A registration an older version stored with its secret in clear.
    const legacyId = crypto.randomUUID();
    await database.db.query(`insert into passmint_webhooks (id, url, secret, state) values ($1, $2, $3, 'enabled')`, [legacyId, receiver.url, LEGACY_SECRET]);
    const stored = () => database.db.query<{ id: string; secret: string }>('select id, secret from passmint_webhooks order by seq');
    let service = await startService(database, { secretKey: undefined });
    try {
      const refusals = [
        await service.call('POST', '/v1/webhooks', { url: receiver.url, secret: WEBHOOK_SECRET }),
        await service.call('POST', '/v1/webhooks', { url: receiver.url }),
        await service.call('POST', `/v1/webhooks/${legacyId}/secret`, { secret: WEBHOOK_SECRET }),
        await service.call('POST', `/v1/webhooks/${legacyId}/secret`),
        await service.call('POST', '/v1/google/credentials', { serviceAccount: serviceAccount().json, issuerId: '3388000000012345678' }),
      ];
      for (const refused of refusals) {
        expect(refused.status).toBe(409);
        expect(refused.headers.get('content-type')).toBe('application/problem+json');
        expect(refused.body.code).toBe('secret-key-missing');
        expect(refused.body.detail).toMatch(
          /nothing was stored: start it with PASSMINT_SECRET_KEY \(32 random bytes in base64: `openssl rand -base64 32`\) or --secret-key-file\.$/,
        );
      }
      expect(await stored()).toEqual([{ id: legacyId, secret: LEGACY_SECRET }]);
      expect(await database.db.query('select 1 from passmint_google_credentials')).toEqual([]);
      // The clear secret still signs: the receiver checking it accepts the handshake.
      expect((await service.call('POST', `/v1/webhooks/${legacyId}/verify`)).body.verification).toEqual({ verified: true, status: 200 });
    } finally {
      await service.close();
    }

    // Started with a key: the old secret is sealed at start, a new registration is stored sealed, and the table holds neither in any encoding.
    service = await startService(database);
    try {
      const created = await service.call('POST', '/v1/webhooks', { url: receiver.url, secret: LEGACY_SECRET.replace('legacy', 'second') });
      expect(created.status).toBe(201);
      expect((await service.call('POST', `/v1/webhooks/${legacyId}/verify`)).body.verification).toEqual({ verified: true, status: 200 });
      const rows = await stored();
      expect(rows.map((row) => row.id)).toEqual([legacyId, created.body.id]);
      const table = (await database.db.query<{ row: string }>('select t::text as row from passmint_webhooks t')).map((row) => row.row).join('\n');
      expect(rows.every((row) => row.secret.startsWith('pm1:'))).toBe(true);
      for (const needle of [...needles(LEGACY_SECRET), ...needles(LEGACY_SECRET.replace('legacy', 'second'))])
        expect(table.includes(needle), needle).toBe(false);
    } finally {
      await service.close();
      await receiver.close();
      await database.dispose();
    }
  });
});
