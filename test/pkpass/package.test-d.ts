import { describe, expectTypeOf, test } from 'vitest';
import type { Issue, Report } from '../../src/issues.js';
import {
  decodePassStrings,
  encodePassStrings,
  type PackError,
  packPass,
  packPasses,
  pkpassHeaders,
  PKPASS_MIME_TYPE,
  prepareFiles,
  type PreparedFiles,
  readPass,
  verifyPass,
  type PackOptions,
  type PassPackage,
  type PassSigner,
  type PassVerification,
  type ReadLimits,
} from '../../src/pkpass/index.js';
import type { PassmintError } from '../../src/errors.js';

declare const signer: PassSigner;
declare const bytes: Uint8Array;

describe('passmint/pkpass package types', () => {
  test('packPass takes a record, a Map or prepared files, and gives bytes a Response takes', () => {
    expectTypeOf(packPass({}, { 'icon.png': bytes }, signer)).toEqualTypeOf<Promise<Uint8Array<ArrayBuffer>>>();
    expectTypeOf(packPass({}, new Map([['icon.png', bytes]]), signer)).toEqualTypeOf<Promise<Uint8Array<ArrayBuffer>>>();
    expectTypeOf(prepareFiles({ 'icon.png': bytes })).toEqualTypeOf<Promise<PreparedFiles>>();
    expectTypeOf<PackOptions['digest']>().toEqualTypeOf<'sha1' | 'sha256' | undefined>();
    expectTypeOf<PackOptions['onWarnings']>().toEqualTypeOf<((issues: readonly Issue[]) => void) | undefined>();
    // @ts-expect-error files are bytes
    void packPass({}, { 'icon.png': 'x' }, signer);
  });

  test('reading and verifying', () => {
    expectTypeOf(readPass(bytes, { maxEntries: 10 } satisfies ReadLimits)).toEqualTypeOf<Promise<PassPackage>>();
    expectTypeOf<PassPackage['files']>().toEqualTypeOf<Map<string, Uint8Array>>();
    expectTypeOf<PassPackage['strings']>().toEqualTypeOf<Map<string, Map<string, string>>>();
    expectTypeOf(verifyPass(bytes)).toEqualTypeOf<Promise<PassVerification>>();
    expectTypeOf<PassVerification>().toMatchTypeOf<Report>();
  });

  test('strings, bundles, serving, errors', () => {
    expectTypeOf(encodePassStrings({ a: 'b' })).toEqualTypeOf<Uint8Array<ArrayBuffer>>();
    expectTypeOf(encodePassStrings(new Map([['a', 'b']]))).toEqualTypeOf<Uint8Array<ArrayBuffer>>();
    expectTypeOf(decodePassStrings(bytes)).toEqualTypeOf<Map<string, string>>();
    expectTypeOf(packPasses([bytes])).toEqualTypeOf<Uint8Array<ArrayBuffer>>();
    expectTypeOf(packPasses([['a.pkpass', bytes]])).toEqualTypeOf<Uint8Array<ArrayBuffer>>();
    expectTypeOf(PKPASS_MIME_TYPE).toEqualTypeOf<'application/vnd.apple.pkpass'>();
    expectTypeOf(pkpassHeaders('a.pkpass')).toEqualTypeOf<Record<string, string>>();
    expectTypeOf<PackError>().toMatchTypeOf<PassmintError>();
  });
});

test('what packPass gives is a BodyInit (a Response takes it as it is)', () => {
  expectTypeOf<Awaited<ReturnType<typeof packPass>>>().toExtend<BodyInit>();
});
