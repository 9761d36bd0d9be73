import { createHash, createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readPkcs12 } from '../../cli/pkcs12/read-pkcs12.js';
import { Pkcs12Error } from '../../cli/pkcs12/pkcs12-error.js';
import type { Issue } from '../../issues.js';
import { ServiceProblem } from '../../http/problem.js';
import { createPassSigner, type PassSigner } from '../../pkpass/signer.js';
import { SignerError } from '../../pkpass/signer-error.js';
import { deleteCertificate, findCertificate, listCertificates, putCertificate, type CertificateRecord } from '../db/certificates.js';
import { SECRET_PURPOSE, sealingBox } from '../db/secrets.js';
import { isObject, readJson } from '../http/body.js';
import { isUuid } from '../http/paging.js';
import { warnExpiringCertificates } from '../queue/certificate-expiry.js';
import { baseUrl, type ServiceContext } from './context.js';
import { defineRoute, type Route } from './define.js';
import { emptyAnswer, jsonAnswer, jsonBody, location, problemAnswer } from './docs.js';
import { found } from './lookups.js';
import { json, noContent } from './responses.js';
import { object, string } from './schemas.js';

/** The JSON shape of a certificate: never its private key. */
function certificateResource(record: CertificateRecord): Record<string, unknown> {
  return {
    id: record.id,
    passTypeIdentifier: record.passTypeIdentifier,
    teamIdentifier: record.teamIdentifier,
    notBefore: record.notBefore.toISOString(),
    notAfter: record.notAfter.toISOString(),
    wwdrNotAfter: record.wwdrNotAfter.toISOString(),
    fingerprint: record.fingerprint,
    created: record.created.toISOString(),
  };
}

const CERTIFICATE = object({
  id: string("The certificate's id.", { format: 'uuid' }),
  passTypeIdentifier: string("The certificate subject's UID: the pass type it signs."),
  teamIdentifier: string("The certificate subject's OU."),
  notBefore: string(undefined, { format: 'date-time' }),
  notAfter: string('When it expires: renew it before (a `certificate.expiring` event comes 30, 7 and 1 days before).', { format: 'date-time' }),
  wwdrNotAfter: string("When Apple's WWDR intermediate that issued it expires.", { format: 'date-time' }),
  fingerprint: string("SHA-256 of the certificate's DER, hex."),
  created: string(undefined, { format: 'date-time' }),
});

const CERTIFICATE_REQUEST = {
  oneOf: [
    object({ p12: string('The .p12 (PKCS #12) file in base64, as exported from Keychain Access.'), password: string('Its export password.') }, ['p12']),
    object(
      {
        certificate: string('The Pass Type ID certificate, PEM.'),
        privateKey: string('Its private key, PEM (PKCS #8 or PKCS #1, not encrypted).'),
        wwdr: string("Apple's WWDR intermediate, PEM; default the one the service was started with (--wwdr)."),
      },
      ['certificate', 'privateKey'],
    ),
  ],
};

/** Apple's pass-signing extended key usage. */
const PASS_SIGNING_USAGE = '1.2.840.113635.100.4.14';

const USAGE = 'Send { "p12": "<base64>", "password": "…" } or { "certificate": "<PEM>", "privateKey": "<PEM>", "wwdr"?: "<PEM>" }.';
const MAX_TEXT = 64 * 1024;

/** The certificate, key and WWDR of an upload, in the forms `createPassSigner` reads. */
function readUpload(body: unknown, startWwdr: Uint8Array | undefined): { certificate: Uint8Array | string; privateKey: string; wwdr: Uint8Array | string } {
  if (!isObject(body)) throw new ServiceProblem(422, 'invalid-body', USAGE);
  const invalid = (path: string, message: string): never => {
    throw new ServiceProblem(422, 'invalid-certificate', `${message}.`, { issues: [{ severity: 'error', code: 'invalid-value', message, path }] });
  };
  const text = (name: string, required: boolean): string | undefined => {
    const value = body[name];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value === '' || value.length > MAX_TEXT)
      return invalid(`/${name}`, `\`${name}\` is a string of at most ${MAX_TEXT} characters`);
    return value;
  };
  const wwdrOf = (fromFile: Uint8Array | undefined): Uint8Array | string => {
    const given = text('wwdr', false) ?? fromFile ?? startWwdr;
    return given ?? invalid('/wwdr', "Give Apple's WWDR intermediate (`wwdr`, PEM): the service was started without one (--wwdr)");
  };
  if (body['p12'] !== undefined) {
    const p12 = text('p12', true)!;
    if (!/^[A-Za-z0-9+/\s]+={0,2}\s*$/.test(p12)) invalid('/p12', '`p12` is the .p12 file in base64');
    const password = text('password', false) ?? '';
    let contents: ReturnType<typeof readPkcs12>;
    try {
      contents = readPkcs12(new Uint8Array(Buffer.from(p12, 'base64')), password);
    } catch (error) {
      if (!(error instanceof Pkcs12Error)) throw error;
      return invalid(error.code === 'wrong-passphrase' ? '/password' : '/p12', error.message.replace(/\.$/, ''));
    }
    // The certificate whose public key is a key's in the file; the certificate that issued it, if the file holds it, is the WWDR.
    let pair: { certificate: X509Certificate; key: KeyObject; others: X509Certificate[] } | undefined;
    try {
      const certificates = contents.certificates.map((entry) => new X509Certificate(entry.der));
      for (const entry of contents.keys) {
        const key = createPrivateKey({ key: Buffer.from(entry.pkcs8), format: 'der', type: 'pkcs8' });
        const certificate = certificates.find((candidate) => candidate.checkPrivateKey(key));
        if (certificate !== undefined) pair = { certificate, key, others: certificates.filter((other) => other !== certificate) };
      }
    } catch {
      return invalid('/p12', 'The .p12 opens, but a certificate or key inside it cannot be read: export it again from Keychain Access');
    }
    if (pair !== undefined) {
      const issuer = pair.others.find((other) => pair.certificate.checkIssued(other));
      return {
        certificate: new Uint8Array(pair.certificate.raw),
        privateKey: pair.key.export({ type: 'pkcs8', format: 'pem' }) as string,
        wwdr: wwdrOf(issuer === undefined ? undefined : new Uint8Array(issuer.raw)),
      };
    }
    return invalid('/p12', 'The .p12 holds no certificate together with its private key: export the certificate with its key from Keychain Access');
  }
  const certificate = text('certificate', true)!;
  const privateKey = text('privateKey', true)!;
  return { certificate, privateKey, wwdr: wwdrOf(undefined) };
}

/** A signer for the upload, checked as `createPassSigner` checks (key matches, Apple's pass-signing extension, chain, dates): a 422 naming what is wrong. */
async function checkedSigner(upload: ReturnType<typeof readUpload>): Promise<{ signer: PassSigner; privateKeyPem: string }> {
  let signer: PassSigner;
  try {
    signer = await createPassSigner(upload);
  } catch (error) {
    if (!(error instanceof SignerError)) throw error;
    const issues: Issue[] = [...error.issues];
    throw new ServiceProblem(422, 'invalid-certificate', issues[0]?.message ?? 'The certificate cannot sign passes.', { issues });
  }
  // Apple's Pass Type ID certificates carry the pass-signing extended key usage; Wallet refuses passes signed without it.
  if (!(new X509Certificate(signer.certificate).keyUsage ?? []).includes(PASS_SIGNING_USAGE)) {
    const message = `The certificate has no pass-signing extended key usage (${PASS_SIGNING_USAGE}): it is not a Pass Type ID certificate Apple issued`;
    throw new ServiceProblem(422, 'invalid-certificate', `${message}.`, {
      issues: [{ severity: 'error', code: 'not-pass-certificate', message, path: '/certificate' }],
    });
  }
  let privateKeyPem: string;
  try {
    privateKeyPem = createPrivateKey(upload.privateKey).export({ type: 'pkcs8', format: 'pem' }) as string;
  } catch {
    throw new ServiceProblem(422, 'invalid-certificate', 'The private key cannot be read.', {
      issues: [{ severity: 'error', code: 'invalid-key', message: 'The private key cannot be read', path: '/privateKey' }],
    });
  }
  return { signer, privateKeyPem };
}

const certificateOf = (context: ServiceContext, id: string): Promise<CertificateRecord> =>
  found(isUuid(id) ? findCertificate(context.db, id) : undefined, 'certificate-not-found', `No certificate ${JSON.stringify(id)} exists.`);

/** Pass Type ID certificates: upload (a replacement takes over at once), list, read, delete. Every call needs `admin`. */
export const certificateRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/certificates',
    auth: 'admin',
    summary: 'List signing certificates',
    description: 'One per pass type, with its dates; never a private key. The certificate given at start (--cert) is not listed.',
    responses: { 200: jsonAnswer(object({ items: { type: 'array', items: CERTIFICATE } }), 'The certificates, by pass type.') },
    handler: async (_call, { db }) => json({ items: (await listCertificates(db)).map(certificateResource) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/certificates',
    auth: 'admin',
    summary: 'Upload a signing certificate',
    description:
      "A Pass Type ID certificate and its private key, as a .p12 or as PEM, checked as signing checks them (the key matches, Apple's pass-signing extension, the chain to the WWDR intermediate, the dates). It signs its pass type's passes and sends their APNs pushes from now on, in every process within a second; one of the same pass type and team replaces the one there (yearly renewal without a restart). The private key is stored sealed under the service's secret key and never shown again. A certificate with 30 days or less left sends `certificate.expiring` at once.",
    body: jsonBody(CERTIFICATE_REQUEST),
    responses: {
      201: jsonAnswer(CERTIFICATE, 'The certificate (never its key).', location),
      409: problemAnswer(
        'The pass type has a certificate of another team (`certificate-conflict`; delete it first), or the service has no secret key to seal the key with (`secret-key-missing`).',
      ),
      422: problemAnswer(
        'Not a certificate and key that can sign passes (`invalid-certificate`, with `issues` naming what and where), or a bad body (`invalid-body`).',
      ),
    },
    handler: async ({ request }, { context, db }) => {
      const box = sealingBox(context.secretBox, 'private keys');
      const upload = readUpload(await readJson(request, context.maxBodyBytes), context.wwdr);
      const { signer, privateKeyPem } = await checkedSigner(upload);
      const outcome = await db.transaction((tx) =>
        putCertificate(tx, {
          passTypeIdentifier: signer.passTypeIdentifier,
          teamIdentifier: signer.teamIdentifier,
          certificate: signer.certificate,
          wwdr: signer.wwdr,
          sealedPrivateKey: box.seal(privateKeyPem, SECRET_PURPOSE.privateKey),
          fingerprint: createHash('sha256').update(signer.certificate).digest('hex'),
          notBefore: signer.notBefore,
          notAfter: signer.notAfter,
          wwdrNotAfter: signer.wwdrNotAfter,
        }),
      );
      if ('conflict' in outcome) {
        throw new ServiceProblem(
          409,
          'certificate-conflict',
          `The pass type "${signer.passTypeIdentifier}" is signed by team ${outcome.conflict}, not ${signer.teamIdentifier}: passes keep their team, so a certificate of another team cannot replace it. Delete the certificate there first if the pass type really changed hands.`,
        );
      }
      await context.signers.refresh();
      if ((await warnExpiringCertificates(db)) > 0) context.notify();
      return json(certificateResource(outcome.stored), 201, { location: `${baseUrl(context, request)}/v1/certificates/${outcome.stored.id}` });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/certificates/{id}',
    auth: 'admin',
    summary: 'Read a signing certificate',
    responses: { 200: jsonAnswer(CERTIFICATE, 'The certificate (never its key).'), 404: problemAnswer('No such certificate (`certificate-not-found`).') },
    handler: async ({ params }, { context }) => json(certificateResource(await certificateOf(context, params.id))),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/certificates/{id}',
    auth: 'admin',
    summary: 'Delete a signing certificate',
    description: "Its private key goes with it; its pass type's passes are no longer signed (their downloads answer 409) until another is uploaded.",
    responses: { 204: emptyAnswer('Deleted.'), 404: problemAnswer('No such certificate (`certificate-not-found`).') },
    handler: async ({ params }, { context, db }) => {
      const record = await certificateOf(context, params.id);
      await db.transaction((tx) => deleteCertificate(tx, record.id));
      await context.signers.refresh();
      return noContent();
    },
  }),
];
