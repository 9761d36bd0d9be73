import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  DerError,
  NULL,
  TAG,
  bitString,
  boolean,
  compareDer,
  concatBytes,
  encodeLength,
  generalizedTime,
  integer,
  octetString,
  oid,
  parseDer,
  readBitString,
  readBoolean,
  readOctets,
  readOid,
  readSmallInteger,
  readText,
  readTime,
  readUnsigned,
  sequence,
  setOf,
  tagged,
  time,
  tlv,
  utcTime,
  utf8String,
} from '../../src/pkpass/asn1/index.js';
import { makePki, openssl } from './pki.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'));

describe('DER writer', () => {
  test('lengths in the shortest form', () => {
    expect(hex(encodeLength(0))).toBe('00');
    expect(hex(encodeLength(127))).toBe('7f');
    expect(hex(encodeLength(128))).toBe('8180');
    expect(hex(encodeLength(255))).toBe('81ff');
    expect(hex(encodeLength(256))).toBe('820100');
    expect(hex(encodeLength(70_000))).toBe('83011170');
  });

  test('object identifiers (X.690 examples and the CMS attribute OIDs)', () => {
    expect(hex(oid('1.2.840.113549.1.9.4'))).toBe('06092a864886f70d010904');
    expect(hex(oid('0.9.2342.19200300.100.1.1'))).toBe('060a0992268993f22c640101');
    expect(hex(oid('2.5.4.11'))).toBe('060355040b');
    expect(hex(oid('2.999.3'))).toBe('0603883703');
    expect(() => oid('3.1')).toThrow(RangeError);
    expect(() => oid('1.40')).toThrow(RangeError);
  });

  test('integers: signed numbers, unsigned magnitudes', () => {
    expect(hex(integer(0))).toBe('020100');
    expect(hex(integer(127))).toBe('02017f');
    expect(hex(integer(128))).toBe('02020080');
    expect(hex(integer(256))).toBe('02020100');
    expect(hex(integer(-1))).toBe('0201ff');
    expect(hex(integer(-128))).toBe('020180');
    expect(hex(integer(-129))).toBe('0202ff7f');
    expect(hex(integer(2n ** 64n))).toBe('0209010000000000000000');
    expect(hex(integer(Uint8Array.of(0, 0, 0x80)))).toBe('02020080');
    expect(hex(integer(Uint8Array.of(0, 0)))).toBe('020100');
    expect(hex(integer(new Uint8Array()))).toBe('020100');
    expect(hex(integer(Uint8Array.of(1, 0, 1)))).toBe('0203010001');
  });

  test('times: UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5)', () => {
    const text = (encoded: Uint8Array): string => Buffer.from(encoded.subarray(2)).toString('latin1');
    expect(text(utcTime(new Date('2026-01-02T03:04:05.678Z')))).toBe('260102030405Z');
    expect(utcTime(new Date('2026-01-02T03:04:05Z'))[0]).toBe(0x17);
    expect(text(generalizedTime(new Date('2050-01-01T00:00:00Z')))).toBe('20500101000000Z');
    expect(time(new Date('2049-12-31T23:59:59Z'))[0]).toBe(TAG.UTC_TIME);
    expect(time(new Date('2050-01-01T00:00:00Z'))[0]).toBe(TAG.GENERALIZED_TIME);
    expect(time(new Date('1949-12-31T23:59:59Z'))[0]).toBe(TAG.GENERALIZED_TIME);
    expect(() => utcTime(new Date('2050-01-01T00:00:00Z'))).toThrow(RangeError);
  });

  test('SET OF sorts the encodings, a shorter one padded with zeros (X.690 §11.6)', () => {
    const set = setOf(Uint8Array.of(4, 1, 2), Uint8Array.of(2, 1, 9), Uint8Array.of(4, 1, 1));
    expect(hex(set)).toBe('3109020109040101040102');
    expect(compareDer(Uint8Array.of(1), Uint8Array.of(1, 0))).toBe(0);
    expect(compareDer(Uint8Array.of(1), Uint8Array.of(1, 1))).toBeLessThan(0);
    expect(compareDer(Uint8Array.of(2), Uint8Array.of(1, 9))).toBeGreaterThan(0);
  });

  test('the three CMS signed attributes sort as contentType, signingTime, messageDigest', () => {
    const attribute = (type: string, value: Uint8Array): Uint8Array => sequence(oid(type), setOf(value));
    const contentType = attribute('1.2.840.113549.1.9.3', oid('1.2.840.113549.1.7.1'));
    const signingTime = attribute('1.2.840.113549.1.9.5', utcTime(new Date('2026-01-01T00:00:00Z')));
    const messageDigest = attribute('1.2.840.113549.1.9.4', octetString(new Uint8Array(32)));
    const set = parseDer(setOf(messageDigest, signingTime, contentType));
    expect(set.children.map((child) => readOid(child.children[0]))).toEqual(['1.2.840.113549.1.9.3', '1.2.840.113549.1.9.5', '1.2.840.113549.1.9.4']);
  });

  test('openssl asn1parse reads what the writer wrote', async () => {
    const { dir } = await makePki();
    const encoded = sequence(
      integer(1),
      oid('1.2.840.113549.1.1.1'),
      NULL,
      boolean(true),
      octetString(Uint8Array.of(1, 2, 3)),
      bitString(Uint8Array.of(0xff)),
      utf8String('Pâss'),
      tagged(0, setOf(integer(300), integer(2))),
      utcTime(new Date('2026-05-06T07:08:09Z')),
      tlv(TAG.SEQUENCE, new Uint8Array(200)),
    );
    const path = join(dir, 'writer.der');
    writeFileSync(path, encoded);
    const printed = await openssl(['asn1parse', '-inform', 'DER', '-in', path]);
    expect(printed).toContain(':rsaEncryption');
    expect(printed).toContain('INTEGER           :01');
    expect(printed).toContain('BOOLEAN           :255');
    expect(printed).toContain('[HEX DUMP]:010203');
    expect(printed).toContain('UTCTIME           :260506070809Z');
    expect(printed).toContain('INTEGER           :02');
    expect(printed).toContain('INTEGER           :012C');
    expect(printed).not.toMatch(/error/i);
  });
});

describe('DER reader', () => {
  test('reads the certificates openssl made: serial, dates, names, algorithm', async () => {
    const pki = await makePki();
    const certificate = parseDer(pki.certDer);
    expect(certificate.tag).toBe(TAG.SEQUENCE);
    const [tbs, algorithm, signature] = certificate.children;
    const fields = tbs?.children ?? [];
    const serial = (await openssl(['x509', '-in', pki.certPath, '-noout', '-serial'])).trim().replace('serial=', '');
    expect(hex(readUnsigned(fields[1])).toUpperCase().replace(/^0+/, '')).toBe(serial.replace(/^0+/, ''));
    const validity = fields[4]?.children ?? [];
    expect(readTime(validity[0])).toEqual(pki.certNotBefore);
    expect(readTime(validity[1])).toEqual(pki.certNotAfter);
    const subject = fields[5]?.children.map((rdn) => [readOid(rdn.children[0]?.children[0]), readText(rdn.children[0]?.children[1])]);
    expect(subject).toEqual([
      ['0.9.2342.19200300.100.1.1', 'pass.com.example.test'],
      ['2.5.4.3', 'Pass Type ID: pass.com.example.test'],
      ['2.5.4.11', 'A93A5CM278'],
      ['2.5.4.10', 'Example'],
      ['2.5.4.6', 'US'],
    ]);
    expect(readOid(algorithm?.children[0])).toBe('1.2.840.113549.1.1.11');
    expect(readBitString(signature).bytes.length).toBe(256);
    expect(readSmallInteger(fields[0]?.children[0])).toBe(2); // v3
    // Views, not copies: the TBSCertificate is the exact signed bytes.
    expect(tbs?.raw.buffer).toBe(pki.certDer.buffer);
    expect(concatBytes(certificate.children.map((child) => child.raw))).toEqual(certificate.content);
  });

  test('DER refuses indefinite lengths and long-form lengths that fit in short form; BER accepts them', () => {
    const indefinite = bytes('30 80 02 01 05 00 00');
    expect(() => parseDer(indefinite)).toThrow(DerError);
    const node = parseDer(indefinite, { ber: true });
    expect(node.indefinite).toBe(true);
    expect(node.raw.length).toBe(7);
    expect(hex(node.content)).toBe('020105');
    expect(readSmallInteger(node.children[0])).toBe(5);

    const longForm = bytes('30 81 03 02 01 05');
    expect(() => parseDer(longForm)).toThrow(/shortest form/);
    expect(parseDer(longForm, { ber: true }).children).toHaveLength(1);
    expect(() => parseDer(bytes('30 82 00 03 02 01 05'))).toThrow(DerError);
  });

  test('BER: nested indefinite SEQUENCE/[0] and a constructed OCTET STRING are joined', () => {
    // ContentInfo-like: SEQUENCE { OID, [0] { OCTET STRING (constructed) { "ab", "cd" } } }, all indefinite.
    const ber = bytes('30 80 06 09 2a864886f70d010701 a0 80 24 80 04 02 6162 04 02 6364 00 00 00 00 00 00');
    const node = parseDer(ber, { ber: true });
    expect(readOid(node.children[0])).toBe('1.2.840.113549.1.7.1');
    const wrapped = node.children[1]?.children[0];
    expect(Buffer.from(readOctets(wrapped)).toString()).toBe('abcd');
    expect(node.raw.length).toBe(ber.length);
  });

  test('a primitive with an indefinite length, a missing end-of-contents, a stray end-of-contents: DerError', () => {
    expect(() => parseDer(bytes('04 80 00 00'), { ber: true })).toThrow(/primitive/);
    expect(() => parseDer(bytes('30 80 02 01 05'), { ber: true })).toThrow(/end-of-contents/);
    expect(() => parseDer(bytes('30 02 00 00'))).toThrow(/end-of-contents/);
  });

  test('truncation, overlong lengths, trailing bytes and high tag numbers are DerErrors', () => {
    expect(() => parseDer(new Uint8Array())).toThrow(DerError);
    expect(() => parseDer(bytes('30'))).toThrow(/truncated/);
    expect(() => parseDer(bytes('30 05 02 01'))).toThrow(/past the end/);
    expect(() => parseDer(bytes('30 84 ff ff ff ff'))).toThrow(/past the end/);
    expect(() => parseDer(bytes('30 85 01 00 00 00 00'))).toThrow(/too long/);
    expect(() => parseDer(bytes('30 03 02 01 05 00'))).toThrow(/after the element/);
    expect(parseDer(bytes('30 03 02 01 05 00'), { trailing: true }).raw.length).toBe(5);
    expect(() => parseDer(bytes('1f 01 00'))).toThrow(/high tag/);
    // A child that claims more than its parent holds.
    expect(() => parseDer(bytes('30 03 04 05 00 00 00 00 00'))).toThrow(/past the end/);
  });

  test('deep nesting is a DerError, never a stack overflow', () => {
    const depth = 10_000;
    const deep = new Uint8Array(depth * 2 + 2);
    for (let level = 0; level < depth; level++) deep.set([0x30, 0x80], level * 2);
    expect(() => parseDer(deep, { ber: true })).toThrow(/nested deeper than 32/);
    let definite: Uint8Array = NULL;
    for (let level = 0; level < 40; level++) definite = sequence(definite);
    expect(() => parseDer(definite)).toThrow(DerError);
    expect(parseDer(definite, { maxDepth: 64 }).tag).toBe(TAG.SEQUENCE);
  });

  test('too many elements is a DerError (memory stays bounded)', () => {
    const many = tlv(
      TAG.SEQUENCE,
      new Uint8Array(400_000).map((_, index) => (index % 2 === 0 ? TAG.NULL : 0)),
    );
    expect(() => parseDer(many)).toThrow(/more than 100000 elements/);
    expect(parseDer(many, { maxElements: 300_000 }).children).toHaveLength(200_000);
  });

  test('value readers check their input', () => {
    expect(() => readOid(parseDer(bytes('06 00')))).toThrow(DerError);
    expect(() => readOid(parseDer(bytes('06 02 2a 86')))).toThrow(/unterminated/);
    expect(() => readOid(parseDer(bytes('06 03 2a 80 01')))).toThrow(/leading zero/);
    expect(readOid(parseDer(bytes('06 0a 2a ff ff ff ff ff ff ff ff 7f')))).toBe('1.2.' + String(2n ** 63n - 1n));
    expect(() => readUnsigned(parseDer(bytes('02 01 80')))).toThrow(/negative/);
    expect(() => readSmallInteger(parseDer(bytes('02 05 01 00 00 00 00')))).toThrow(DerError);
    expect(readBoolean(parseDer(bytes('01 01 ff')))).toBe(true);
    expect(() => readBoolean(parseDer(bytes('01 02 ff ff')))).toThrow(DerError);
    expect(() => readBitString(parseDer(bytes('03 01 08')))).toThrow(DerError);
    expect(readBitString(parseDer(bytes('03 02 07 80'))).unusedBits).toBe(7);
    expect(() => readTime(parseDer(bytes('17 0d 323630323330303030303030 5a')))).toThrow(/real date/); // 30 Feb
    expect(readTime(parseDer(bytes('17 0b 32363031303230333034 5a'))).toISOString()).toBe('2026-01-02T03:04:00.000Z');
    expect(readTime(parseDer(bytes('18 13 32303236303130323033303430352e3132335a'))).toISOString()).toBe('2026-01-02T03:04:05.123Z');
    expect(() => readTime(parseDer(bytes('17 0d 323630313032303330343035 2b')))).toThrow(/UTCTime/);
    expect(readText(parseDer(bytes('1e 04 00 70 00 e2')))).toBe('pâ');
    expect(readText(parseDer(bytes('0c 02 c3 28')))).toBe('\ufffd(');
    expect(() => readText(parseDer(bytes('02 01 00')))).toThrow(/not a string/);
    expect(() => readOctets(parseDer(bytes('24 03 02 01 00'), { ber: true }))).toThrow(/non-OCTET STRING/);
  });
});
