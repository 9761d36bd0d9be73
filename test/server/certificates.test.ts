// Certificates over the API: two pass types, each signed by its own certificate (openssl cms -verify and the
// signer's subject) and pushed through APNs with its own client certificate (the stand-in checks it against the
// topic); a replacement takes over without a restart; another team is refused; never a key in an answer.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApnsClient } from '../../src/apns/client.js';
import { apnsPki } from '../apns/pki.js';
import { startApnsStandIn, type StandIn } from '../apns/stand-in.js';
import { makePki } from '../pkpass/pki.js';
import {
  FIRST_TEAM,
  FIRST_TYPE,
  issuePass,
  p12Of,
  SECOND_TEAM,
  SECOND_TYPE,
  signerSubject,
  subjectLine,
  subjectOf,
  templateOf,
  type PassIdentity,
} from './certificate-kit.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer, type AnswerCheck } from './openapi-check.js';
import { eventually } from './receiver.js';

const DAY = 86_400_000;

for (const engine of ENGINES) {
  describe(`certificates on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let standIn: StandIn;
    let first: PassIdentity;
    let second: PassIdentity;
    let check: AnswerCheck;
    const answers: Answer[] = [];

    beforeAll(async () => {
      [first, second] = await Promise.all([issuePass(FIRST_TYPE, FIRST_TEAM), issuePass(SECOND_TYPE, SECOND_TEAM)]);
      // APNs trusts the pass certificates' chain (Apple's WWDR and root stand in for its own).
      const apns = apnsPki();
      standIn = await startApnsStandIn({ ...apns, caPem: `${apns.caPem}\n${first.pki.wwdrPem}\n${first.pki.rootPem}` });
      database = await engine.open();
      service = await startService(database, {
        secretKey: randomBytes(32).toString('base64'),
        wwdr: first.pki.wwdrPem,
        apnsFor: (identity) =>
          createApnsClient({ certificate: { cert: identity.certificatePem, key: identity.privateKeyPem }, origin: standIn.origin, ca: apns.caPem }),
      });
      check = await openApiChecker(service.url);
      service = recordAnswers(service, answers);
    });

    afterAll(async () => {
      await service?.close();
      await standIn?.close();
      await database?.dispose();
    });

    test('two certificates (PEM and .p12) sign their own pass types and push with their own identity; a replacement takes over; another team is refused', async () => {
      const firstTemplate = await templateOf(service, first.passTypeIdentifier);
      expect(firstTemplate.warnings?.map((warning) => warning.code)).toEqual(['no-signing-identity']);

      const pem = await service.call('POST', '/v1/certificates', { certificate: first.certPem, privateKey: first.keyPem });
      expect(pem.status).toBe(201);
      expect(pem.body).toMatchObject({
        passTypeIdentifier: first.passTypeIdentifier,
        teamIdentifier: first.teamIdentifier,
        notAfter: first.notAfter.toISOString(),
      });
      expect(pem.body.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(pem.body)).not.toContain('PRIVATE');
      const p12 = await service.call('POST', '/v1/certificates', { p12: await p12Of(second, 'export-pw'), password: 'export-pw' });
      expect(p12.status).toBe(201);
      expect(p12.body).toMatchObject({ passTypeIdentifier: SECOND_TYPE, teamIdentifier: SECOND_TEAM });
      expect((await service.call('POST', '/v1/certificates', { p12: await p12Of(second, 'export-pw'), password: 'wrong' })).body).toMatchObject({
        code: 'invalid-certificate',
        issues: [{ path: '/password' }],
      });

      // Templates of either pass type now carry no warning; passes carry their certificate's team.
      const secondTemplate = await templateOf(service, SECOND_TYPE);
      expect(secondTemplate.warnings).toBeUndefined();
      const listed = await service.call('GET', '/v1/certificates');
      expect(listed.body.items.map((item: { passTypeIdentifier: string }) => item.passTypeIdentifier)).toEqual([SECOND_TYPE, first.passTypeIdentifier]);
      expect((await service.call('GET', `/v1/certificates/${p12.body.id}`)).body).toEqual(p12.body);

      const passes = [];
      for (const [template, pki, serial, passType, team] of [
        [firstTemplate, first, 'A-1', first.passTypeIdentifier, first.teamIdentifier],
        [secondTemplate, second, 'B-1', SECOND_TYPE, SECOND_TEAM],
      ] as const) {
        const made = await service.call('POST', `/v1/templates/${template.id}/passes`, { values: { n: 'one' }, serialNumber: serial });
        expect(made.status).toBe(201);
        const pass = (await service.call('GET', `/v1/passes/${passType}/${serial}/passjson`)).body;
        expect(pass.teamIdentifier).toBe(team);
        const download = await fetch(made.body.links.pkpass);
        expect(download.status).toBe(200);
        expect(await signerSubject(new Uint8Array(await download.arrayBuffer()), pki)).toBe(await subjectLine(pki));
        passes.push({ pass, passType, serial });
      }

      // A device registers each pass; a change pushes each topic with its own certificate (the stand-in answers
      // TopicDisallowed to a certificate of another topic).
      for (const [index, { pass, passType, serial }] of passes.entries()) {
        const registered = await fetch(`${pass.webServiceURL}/v1/devices/device-${index}/registrations/${passType}/${serial}`, {
          method: 'POST',
          headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pushToken: `${index}a`.repeat(32) }),
        });
        expect(registered.status).toBe(201);
        await service.call('PUT', `/v1/passes/${passType}/${serial}/values`, { n: 'two' });
      }
      await eventually(() => standIn.pushes.length >= 2, 10_000, 'two pushes');
      expect(standIn.pushes.map((push) => [push.headers['apns-topic'], push.certificateUid]).sort()).toEqual([
        [SECOND_TYPE, SECOND_TYPE],
        [FIRST_TYPE, FIRST_TYPE],
      ]);
      await eventually(
        async () => (await service.server.metrics.render()).includes('passmint_apns_push_attempts_total{outcome="sent"} 2'),
        10_000,
        'both pushes sent',
      );

      // The renewal: same pass type and team, a later end. New packages are signed by it at once.
      const renewed = await issuePass(FIRST_TYPE, FIRST_TEAM, { notAfter: new Date(Date.now() + 400 * DAY) });
      const replacement = await service.call('POST', '/v1/certificates', {
        certificate: renewed.certPem,
        privateKey: renewed.keyPem,
        wwdr: renewed.pki.wwdrPem,
      });
      expect(replacement.status).toBe(201);
      expect(replacement.body.id).not.toBe(pem.body.id);
      expect((await service.call('GET', `/v1/certificates/${pem.body.id}`)).body.code).toBe('certificate-not-found');
      expect((await service.call('GET', '/v1/certificates')).body.items).toHaveLength(2);
      await service.call('PUT', `/v1/passes/${first.passTypeIdentifier}/A-1/values`, { n: 'three' });
      const token = passes[0]!.pass.authenticationToken as string;
      const again = await fetch(`${service.url}/v1/passes/${first.passTypeIdentifier}/A-1/pkpass?token=${token}`);
      expect(await signerSubject(new Uint8Array(await again.arrayBuffer()), renewed)).toBe(await subjectLine(renewed));

      // Another team for the same pass type: refused, nothing changed.
      const stranger = await issuePass(FIRST_TYPE, 'Z9Z9Z9Z9Z9');
      const refused = await service.call('POST', '/v1/certificates', { certificate: stranger.certPem, privateKey: stranger.keyPem });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('certificate-conflict');
      expect((await service.call('GET', '/v1/certificates')).body.items.map((item: { id: string }) => item.id).sort()).toEqual(
        [replacement.body.id, p12.body.id].sort(),
      );

      // Deleted: its pass type's downloads are refused until another is uploaded.
      expect((await service.call('DELETE', `/v1/certificates/${p12.body.id}`)).status).toBe(204);
      const unsigned = await fetch(`${service.url}/v1/passes/${SECOND_TYPE}/B-1/pkpass?token=${passes[1]!.pass.authenticationToken}`);
      expect(unsigned.status).toBe(409);
      expect(((await unsigned.json()) as { code: string }).code).toBe('signing-not-configured');
    });

    test('what cannot sign is refused with the reason and where: a key of another certificate, no pass-signing extension, a bad body', async () => {
      const pki = await makePki();
      const mismatch = await service.call('POST', '/v1/certificates', { certificate: pki.certPem, privateKey: pki.otherKeyPem });
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.issues).toContainEqual(expect.objectContaining({ code: 'key-mismatch', path: '/privateKey' }));
      const plain = await makePki({ extensions: 'no_key_usage_ext', subject: subjectOf('pass.com.example.plain', 'A93A5CM278') });
      const notPass = await service.call('POST', '/v1/certificates', { certificate: plain.certPem, privateKey: plain.keyPem });
      expect(notPass.status).toBe(422);
      expect(notPass.body).toMatchObject({ code: 'invalid-certificate', issues: [{ code: 'not-pass-certificate', path: '/certificate' }] });
      expect((await service.call('POST', '/v1/certificates', ['x'])).body.code).toBe('invalid-body');
      expect((await service.call('POST', '/v1/certificates', { p12: '%%%' })).body.issues[0].path).toBe('/p12');
      expect((await service.call('GET', '/v1/certificates/nope')).status).toBe(404);
    });

    test('every answer above matches the OpenAPI document', () => {
      expect(answers.filter((answer) => answer.path.startsWith('/v1/certificates')).length).toBeGreaterThan(10);
      expect(answers.map(check).filter((problem) => problem !== undefined)).toEqual([]);
    });
  });
}

describe('a service without a secret key', () => {
  test('refuses to store a private key, saying how to set one', async () => {
    const database = await ENGINES[1]!.open();
    const service = await startService(database, { secretKey: undefined });
    try {
      const first = await makePki();
      const refused = await service.call('POST', '/v1/certificates', { certificate: first.certPem, privateKey: first.keyPem, wwdr: first.wwdrPem });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('secret-key-missing');
      expect(refused.body.detail).toContain('PASSMINT_SECRET_KEY');
    } finally {
      await service.close();
      await database.dispose();
    }
  });
});
