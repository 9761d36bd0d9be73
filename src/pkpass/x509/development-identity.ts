// A development identity: a stand-in root, a stand-in WWDR intermediate and a
// Pass Type ID certificate shaped like Apple's (UID = pass type, OU = team,
// CN "Pass Type ID: …", the pass-signing extended key usage), so a first pass
// can be signed, packed and verified without an Apple account. Every subject
// says it is a development identity; Wallet on an iPhone refuses it (the root
// is not Apple's). Written with the library's own DER writer and Web Crypto:
// no openssl needed, in Node, browsers and workers alike.

import { parseDer } from '../asn1/der-reader.js';
import { childrenOf, readBitString } from '../asn1/der-values.js';
import { bitString, boolean, integer, NULL, octetString, oid, printableString, sequence, setOf, tagged, time, utf8String } from '../asn1/der-writer.js';
import { TAG } from '../asn1/tags.js';
import { OID } from '../oids.js';
import { DEVELOPMENT_ORGANIZATION } from './development.js';

/**
 * Options of {@link createDevelopmentIdentity}.
 *
 * @example
 * ```ts
 * const options: DevelopmentIdentityOptions = { passTypeIdentifier: 'pass.com.example.event', teamIdentifier: 'DEVTEAM123' };
 * ```
 */
export interface DevelopmentIdentityOptions {
  /** The pass type identifier (subject UID): `pass.com.example.event`. */
  readonly passTypeIdentifier: string;
  /** The team identifier (subject OU). Default {@link DEVELOPMENT_TEAM_IDENTIFIER}. */
  readonly teamIdentifier?: string;
  /** The start of every certificate's validity. Default: an hour ago (clocks differ). */
  readonly notBefore?: Date;
}

/**
 * A development identity, every part PEM: `certificate` and `privateKey`
 * (PKCS #8, unencrypted) for `createPassSigner`, `wwdr` the stand-in
 * intermediate that issued it, `root` the stand-in root that issued the WWDR
 * (for `verifyPass(bytes, { roots: [root] })`).
 *
 * @example
 * ```ts
 * const identity: DevelopmentIdentity = await createDevelopmentIdentity({ passTypeIdentifier: 'pass.com.example.event' });
 * const signer = await createPassSigner({ certificate: identity.certificate, privateKey: identity.privateKey, wwdr: identity.wwdr });
 * ```
 */
export interface DevelopmentIdentity {
  readonly certificate: string;
  readonly privateKey: string;
  readonly wwdr: string;
  readonly root: string;
  readonly passTypeIdentifier: string;
  readonly teamIdentifier: string;
  /** The end of the pass certificate's validity (a year, like Apple's). */
  readonly notAfter: Date;
}

/**
 * The team identifier of a development identity when none is given: ten
 * upper-case letters and digits, the shape of Apple's.
 *
 * @example
 * ```ts
 * DEVELOPMENT_TEAM_IDENTIFIER; // 'DEVTEAM123'
 * ```
 */
export const DEVELOPMENT_TEAM_IDENTIFIER = 'DEVTEAM123';

const DAY = 86_400_000;
const RSA = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: Uint8Array.of(1, 0, 1), hash: 'SHA-256' } as const;

interface Issuer {
  readonly name: Uint8Array;
  readonly key: CryptoKey;
  readonly keyIdentifier: Uint8Array;
}

interface Made {
  readonly der: Uint8Array;
  readonly issuer: Issuer;
}

/**
 * Makes a development identity: RSA 2048 keys, a root, a WWDR stand-in and a
 * Pass Type ID certificate with Apple's subject shape and the pass-signing
 * extended key usage (1.2.840.113635.100.4.14), all SHA-256 with RSA. Its
 * subjects carry the organization {@link DEVELOPMENT_ORGANIZATION}, which
 * `verifyPass` reports as `development-certificate`. Throws `RangeError` for a
 * pass type identifier that does not start with `pass.` or a team identifier
 * that is not ten upper-case letters and digits.
 *
 * @example
 * ```ts
 * const identity = await createDevelopmentIdentity({ passTypeIdentifier: 'pass.com.example.event' });
 * identity.teamIdentifier; // 'DEVTEAM123'
 * ```
 */
export async function createDevelopmentIdentity(options: DevelopmentIdentityOptions): Promise<DevelopmentIdentity> {
  const passTypeIdentifier = options.passTypeIdentifier;
  const teamIdentifier = options.teamIdentifier ?? DEVELOPMENT_TEAM_IDENTIFIER;
  if (typeof passTypeIdentifier !== 'string' || !/^pass\.[\x21-\x7e]+$/.test(passTypeIdentifier)) {
    throw new RangeError(`A pass type identifier starts with "pass." (pass.com.example.event), not ${JSON.stringify(passTypeIdentifier)}`);
  }
  if (typeof teamIdentifier !== 'string' || !/^[A-Z0-9]{10}$/.test(teamIdentifier)) {
    throw new RangeError(`A team identifier is ten upper-case letters and digits (like Apple's A93A5CM278), not ${JSON.stringify(teamIdentifier)}`);
  }
  const start = new Date(Math.floor((options.notBefore?.getTime() ?? Date.now() - 3_600_000) / 1000) * 1000);
  const [rootKeys, wwdrKeys, passKeys] = await Promise.all([generate(), generate(), generate()]);

  const rootName = name([
    ['C', 'US'],
    ['O', DEVELOPMENT_ORGANIZATION],
    ['CN', 'passmint Development Root CA'],
  ]);
  const root = await certificate({
    subject: rootName,
    keys: rootKeys,
    notBefore: start,
    notAfter: new Date(start.getTime() + 10 * 365 * DAY),
    extensions: caExtensions,
  });
  const wwdrName = name([
    ['C', 'US'],
    ['O', DEVELOPMENT_ORGANIZATION],
    ['OU', 'G4'],
    ['CN', 'Development stand-in for the Apple Worldwide Developer Relations Certification Authority'],
  ]);
  const wwdr = await certificate({
    subject: wwdrName,
    keys: wwdrKeys,
    notBefore: start,
    notAfter: new Date(start.getTime() + 5 * 365 * DAY),
    extensions: caExtensions,
    issuer: root.issuer,
  });
  const notAfter = new Date(start.getTime() + 365 * DAY);
  const pass = await certificate({
    subject: name([
      ['UID', passTypeIdentifier],
      ['CN', `Pass Type ID: ${passTypeIdentifier}`],
      ['OU', teamIdentifier],
      ['O', DEVELOPMENT_ORGANIZATION],
      ['C', 'US'],
    ]),
    keys: passKeys,
    notBefore: start,
    notAfter,
    extensions: passExtensions,
    issuer: wwdr.issuer,
  });
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', passKeys.privateKey));
  return {
    certificate: pem('CERTIFICATE', pass.der),
    privateKey: pem('PRIVATE KEY', pkcs8),
    wwdr: pem('CERTIFICATE', wwdr.der),
    root: pem('CERTIFICATE', root.der),
    passTypeIdentifier,
    teamIdentifier,
    notAfter,
  };
}

function generate(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
}

const ATTRIBUTE_TYPES = { C: '2.5.4.6', O: OID.organization, OU: OID.organizationalUnit, CN: OID.commonName, UID: OID.userId } as const;

/** A Name: one attribute per RDN, in the order given; C as PrintableString, the rest UTF8String (as Apple's certificates). */
function name(attributes: readonly (readonly [keyof typeof ATTRIBUTE_TYPES, string])[]): Uint8Array {
  return sequence(...attributes.map(([type, value]) => setOf(sequence(oid(ATTRIBUTE_TYPES[type]), type === 'C' ? printableString(value) : utf8String(value)))));
}

function extension(id: string, critical: boolean, value: Uint8Array): Uint8Array {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));
}

// keyUsage bits: digitalSignature (bit 0) = 0x80; keyCertSign (5) and cRLSign (6) = 0x06, one unused bit.
function caExtensions(subjectKey: Uint8Array, authorityKey: Uint8Array | undefined): Uint8Array[] {
  return [
    extension(OID.basicConstraints, true, sequence(boolean(true))),
    extension(OID.keyUsage, true, bitString(Uint8Array.of(0x06), 1)),
    extension(OID.subjectKeyIdentifier, false, octetString(subjectKey)),
    ...(authorityKey === undefined ? [] : [extension(OID.authorityKeyIdentifier, false, sequence(tagged(0, authorityKey, false)))]),
  ];
}

function passExtensions(subjectKey: Uint8Array, authorityKey: Uint8Array | undefined): Uint8Array[] {
  return [
    extension(OID.basicConstraints, true, sequence()),
    extension(OID.keyUsage, true, bitString(Uint8Array.of(0x80), 7)),
    extension(OID.extendedKeyUsage, false, sequence(oid(OID.passSigning))),
    extension(OID.subjectKeyIdentifier, false, octetString(subjectKey)),
    ...(authorityKey === undefined ? [] : [extension(OID.authorityKeyIdentifier, false, sequence(tagged(0, authorityKey, false)))]),
  ];
}

interface CertificateSpec {
  readonly subject: Uint8Array;
  readonly keys: CryptoKeyPair;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly extensions: (subjectKey: Uint8Array, authorityKey: Uint8Array | undefined) => Uint8Array[];
  /** Absent: self-signed. */
  readonly issuer?: Issuer;
}

/** One X.509 v3 certificate, signed SHA-256 with RSA by its issuer (or itself). */
async function certificate(spec: CertificateSpec): Promise<Made> {
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', spec.keys.publicKey));
  // RFC 5280 §4.2.1.2 method 1: the SHA-1 of the subjectPublicKey bits.
  const publicKeyBits = readBitString(childrenOf(parseDer(spki), TAG.SEQUENCE, 'SubjectPublicKeyInfo', 2)[1], 'subjectPublicKey').bytes;
  const keyIdentifier = new Uint8Array(await crypto.subtle.digest('SHA-1', publicKeyBits.slice()));
  const signer = spec.issuer ?? { name: spec.subject, key: spec.keys.privateKey, keyIdentifier };
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = ((serial[0] as number) & 0x7f) | 0x40; // positive, and 16 octets long
  const algorithm = sequence(oid(OID.sha256WithRSAEncryption), NULL);
  const tbs = sequence(
    tagged(0, integer(2)), // v3
    integer(serial),
    algorithm,
    signer.name,
    sequence(time(spec.notBefore), time(spec.notAfter)),
    spec.subject,
    spki,
    tagged(3, sequence(...spec.extensions(keyIdentifier, spec.issuer?.keyIdentifier))),
  );
  const signature = new Uint8Array(await crypto.subtle.sign(RSA.name, signer.key, tbs.slice()));
  return { der: sequence(tbs, algorithm, bitString(signature)), issuer: { name: spec.subject, key: spec.keys.privateKey, keyIdentifier } };
}

/** PEM text, 64 characters a line. */
function pem(label: string, der: Uint8Array): string {
  let binary = '';
  for (const byte of der) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  const lines: string[] = [];
  for (let index = 0; index < base64.length; index += 64) lines.push(base64.slice(index, index + 64));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
