// Expiry watched: the expiry metric (the WWDR too), certificate.expiring once per certificate and threshold
// across processes (at once for an upload with less left), and 503 certificate-expired past the date, on the
// download and on Apple's fetch.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { warnExpiringCertificates } from '../../src/server/queue/certificate-expiry.js';
import { FIRST_TEAM, issuePass, SECOND_TEAM, SECOND_TYPE, templateOf } from './certificate-kit.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

const DAY = 86_400_000;

for (const engine of ENGINES) {
  describe(`certificate expiry on ${engine.name}`, () => {
    let database: TestDatabase;
    let other: SqlDatabase;
    const services: Service[] = [];
    const secretKey = randomBytes(32).toString('base64');

    beforeAll(async () => {
      database = await engine.open();
      // Two processes on one database (on PostgreSQL, each with its own pool).
      other = database.url === undefined ? database.db : await openPostgres({ connectionString: database.url });
      services.push(await startService(database, { secretKey }), await startService({ ...database, db: other }, { secretKey, createFirstApiKey: false }));
    });

    afterAll(async () => {
      for (const service of services) await service.close();
      if (other !== database?.db) await other?.close();
      await database?.dispose();
    });

    const expiring = async (): Promise<{ thresholdDays: number; passTypeIdentifier: string; fingerprint: string }[]> =>
      (await database.db.query<{ body: string }>(`select body from passmint_events where type = 'certificate.expiring' order by seq`)).map(
        (row) => JSON.parse(row.body).data,
      );

    test('certificate.expiring at once for an upload with less than 30 days left, then once per threshold however many processes look', async () => {
      const [first] = services;
      const soon = await issuePass(SECOND_TYPE, SECOND_TEAM, { notAfter: new Date(Date.now() + 20 * DAY) });
      const uploaded = await first!.call('POST', '/v1/certificates', { certificate: soon.certPem, privateKey: soon.keyPem, wwdr: soon.pki.wwdrPem });
      expect(uploaded.status).toBe(201);
      expect(await expiring()).toEqual([
        expect.objectContaining({ thresholdDays: 30, daysLeft: 19, passTypeIdentifier: SECOND_TYPE, certificateId: uploaded.body.id }),
      ]);

      // Both processes look, at once and again: nothing more until the next threshold…
      await Promise.all([warnExpiringCertificates(database.db), warnExpiringCertificates(other), warnExpiringCertificates(other)]);
      expect(await expiring()).toHaveLength(1);
      // …which one of them sends, once.
      const later = Date.now() + 14 * DAY;
      const sent = await Promise.all([
        warnExpiringCertificates(database.db, later),
        warnExpiringCertificates(other, later),
        warnExpiringCertificates(database.db, later),
      ]);
      expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
      expect((await expiring()).map((data) => data.thresholdDays)).toEqual([30, 7]);

      const metrics = await (await fetch(`${first!.url}/metrics`, { headers: { authorization: `Bearer ${first!.key}` } })).text();
      const seconds = Math.floor(soon.notAfter.getTime() / 1000);
      expect(metrics).toContain(
        `passmint_certificate_expiry_timestamp_seconds{pass_type="${SECOND_TYPE}",team="${SECOND_TEAM}",certificate="pass"} ${seconds}`,
      );
      expect(metrics).toContain(
        `passmint_certificate_expiry_timestamp_seconds{pass_type="${SECOND_TYPE}",team="${SECOND_TEAM}",certificate="wwdr"} ${Math.floor(soon.pki.wwdrNotAfter.getTime() / 1000)}`,
      );
    });

    test('the certificate given at start is watched too: certificate.expiring with no id, once', async () => {
      const flags = await issuePass('pass.com.example.flags', FIRST_TEAM, { notAfter: new Date(Date.now() + 5 * DAY) });
      const signer = await createPassSigner({ certificate: flags.certPem, privateKey: flags.keyPem, wwdr: flags.pki.wwdrPem });
      services.push(await startService({ ...database, db: other }, { signer, secretKey, createFirstApiKey: false }));
      const ofFlags = async () => (await expiring()).filter((data) => data.passTypeIdentifier === 'pass.com.example.flags');
      await eventually(async () => (await ofFlags()).length > 0, 10_000, 'the start certificate warned');
      expect(await ofFlags()).toEqual([expect.objectContaining({ certificateId: null, thresholdDays: 7, daysLeft: 4, teamIdentifier: FIRST_TEAM })]);
      const start = {
        id: null,
        passTypeIdentifier: signer.passTypeIdentifier,
        teamIdentifier: signer.teamIdentifier,
        notAfter: signer.notAfter,
        fingerprint: (await ofFlags())[0]!.fingerprint,
      };
      expect(await warnExpiringCertificates(database.db, Date.now(), start)).toBe(0);
    });

    test("past its date a pass type answers 503 certificate-expired naming the fix, on the download and on Apple's fetch", async () => {
      const [first] = services;
      const passType = 'pass.com.example.brief';
      const brief = await issuePass(passType, FIRST_TEAM, { notAfter: new Date(Date.now() + 4000) });
      expect((await first!.call('POST', '/v1/certificates', { certificate: brief.certPem, privateKey: brief.keyPem, wwdr: brief.pki.wwdrPem })).status).toBe(
        201,
      );
      const template = await templateOf(first!, passType);
      const made = await first!.call('POST', `/v1/templates/${template.id}/passes`, { values: { n: 'x' }, serialNumber: 'E-1' });
      const pass = (await first!.call('GET', `/v1/passes/${passType}/E-1/passjson`)).body;
      // Uploaded with less than a day left: warned at once.
      expect((await expiring()).filter((data) => data.passTypeIdentifier === passType).map((data) => data.thresholdDays)).toEqual([1]);

      expect((await fetch(made.body.links.pkpass)).status).toBe(200);
      // The other process signs with the certificate uploaded to the first one, without a restart (within a second).
      await eventually(async () => (await services[1]!.call('GET', `/v1/passes/${passType}/E-1/pkpass`)).status === 200, 5000, 'the other process to sign');
      // The certificate's end passes (a condition on the clock, not a pause of a guessed length).
      await eventually(() => Date.now() > brief.notAfter.getTime(), 15_000, 'the certificate to expire');
      const download = await fetch(made.body.links.pkpass);
      expect(download.status).toBe(503);
      const problem = (await download.json()) as { code: string; detail: string };
      expect(problem.code).toBe('certificate-expired');
      expect(problem.detail).toContain('POST /v1/certificates');
      const fetched = await fetch(`${pass.webServiceURL}/v1/passes/${passType}/E-1`, { headers: { authorization: `ApplePass ${pass.authenticationToken}` } });
      expect(fetched.status).toBe(503);
      expect(((await fetched.json()) as { code: string }).code).toBe('certificate-expired');
    });
  });
}
