import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  DerError,
  type DerNode,
  concatBytes,
  integer,
  oid,
  parseDer,
  readBitString,
  readIntegerBytes,
  readOctets,
  readOid,
  readText,
  readTime,
  time,
} from '../../src/pkpass/asn1/index.js';
import { RUNS } from '../arbitraries.js';
import { makePki } from './pki.js';

/** Every value reader on every node: each returns or throws a DerError, nothing else. */
function readEverything(node: DerNode): void {
  for (const read of [readOid, readIntegerBytes, readOctets, readText, readTime, readBitString]) {
    try {
      read(node);
    } catch (error) {
      if (!(error instanceof DerError)) throw error;
    }
  }
  for (const child of node.children) readEverything(child);
}

/** What parseDer promises about a tree: children tile their parent's content exactly. */
function checkTiling(node: DerNode): void {
  if (node.children.length > 0) expect(concatBytes(node.children.map((child) => child.raw))).toEqual(node.content);
  for (const child of node.children) checkTiling(child);
}

function parseOrDerError(bytes: Uint8Array, ber: boolean): DerNode | undefined {
  try {
    return parseDer(bytes, { ber });
  } catch (error) {
    expect(error).toBeInstanceOf(DerError);
    return undefined;
  }
}

describe('DER reader on hostile input', () => {
  test('random bytes: a tree whose children tile their parent, or a DerError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, ber) => {
        const node = parseOrDerError(bytes, ber);
        if (node !== undefined) {
          checkTiling(node);
          readEverything(node);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('structured random TLVs (valid headers, random contents) never throw anything but DerError', () => {
    const tlv: fc.Arbitrary<Uint8Array> = fc.letrec<{ node: Uint8Array }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc
          .tuple(fc.constantFrom(0x02, 0x03, 0x04, 0x06, 0x0c, 0x13, 0x17, 0x18, 0x1e), fc.uint8Array({ maxLength: 20 }))
          .map(([tag, content]) => Uint8Array.of(tag, content.length, ...content)),
        fc.tuple(fc.constantFrom(0x30, 0x31, 0xa0, 0x24), fc.array(tie('node'), { maxLength: 4 }), fc.boolean()).map(([tag, children, indefinite]) => {
          const content = concatBytes(children);
          return indefinite
            ? Uint8Array.of(tag, 0x80, ...content, 0, 0)
            : content.length < 128
              ? Uint8Array.of(tag, content.length, ...content)
              : Uint8Array.of(tag, 0x82, content.length >> 8, content.length & 0xff, ...content);
        }),
      ),
    })).node;
    fc.assert(
      fc.property(tlv, (bytes) => {
        const node = parseOrDerError(bytes, true);
        if (node !== undefined) readEverything(node);
      }),
      { numRuns: RUNS },
    );
  });

  test('a real certificate with one byte changed: a tree or a DerError', async () => {
    const { certDer } = await makePki();
    fc.assert(
      fc.property(fc.nat(certDer.length - 1), fc.integer({ min: 1, max: 255 }), fc.boolean(), (index, delta, cut) => {
        const bytes = new Uint8Array(certDer);
        bytes[index] = ((bytes[index] as number) + delta) & 0xff;
        const node = parseOrDerError(cut ? bytes.subarray(0, index) : bytes, false);
        if (node !== undefined) readEverything(node);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('DER round trips', () => {
  test('object identifiers', () => {
    const arcs = fc.array(fc.bigInt({ min: 0n, max: 2n ** 70n }), { maxLength: 8 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), fc.bigInt({ min: 0n, max: 2n ** 40n }), arcs, (first, second, rest) => {
        const dotted = [first, first < 2 ? second % 40n : second, ...rest].join('.');
        expect(readOid(parseDer(oid(dotted)))).toBe(dotted);
      }),
      { numRuns: RUNS },
    );
  });

  test('integers (two’s complement)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }), (value) => {
        const content = readIntegerBytes(parseDer(integer(value)));
        let decoded = 0n;
        for (const byte of content) decoded = (decoded << 8n) | BigInt(byte);
        if (((content[0] as number) & 0x80) !== 0) decoded -= 1n << BigInt(content.length * 8);
        expect(decoded).toBe(value);
        // Shortest form: the first nine bits are never all equal.
        if (content.length > 1) {
          const top = ((content[0] as number) << 1) | ((content[1] as number) >> 7);
          expect(top === 0 || top === 0x1ff).toBe(false);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('times, whole seconds, years 0001–9999', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        const whole = new Date(Math.floor(date.getTime() / 1000) * 1000);
        expect(readTime(parseDer(time(date)))).toEqual(whole);
      }),
      { numRuns: RUNS },
    );
  });
});
