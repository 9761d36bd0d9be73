import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { buildPass, PassValidationError, type PassTemplate } from '../../src/index.js';
import { validatePass } from '../../src/pass/validate.js';
import { ean13CheckDigit, linearBarcodeProblem } from '../../src/rules/barcode-linear.js';
import { draft, issuer } from '../fixtures.js';
import { genericPass } from '../pass/passes.js';

// iOS 27 (WWDC26 "What's new in Wallet", Apple's Wallet Passes documentation):
// posterGeneric, footerFields, featuredActions, four linear barcode formats.

const poster: any = JSON.parse(readFileSync(new URL('../fixtures/wallet-verdicts/poster-generic.json', import.meta.url), 'utf8'));

function found(pass: unknown): string[] {
  return validatePass(pass).issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);
}

function edit(base: unknown, change: (pass: any) => void): unknown {
  const copy = draft(base);
  change(copy);
  return copy;
}

const barcode = (format: string, message: string) => ({ format, message, messageEncoding: 'iso-8859-1' });
/** The issues of a pass whose only barcode is `format` with `message`, the QR fallback after it. */
function barcodeIssues(format: string, message: string): string[] {
  return found(edit(genericPass, (pass) => (pass.barcodes = [barcode(format, message), barcode('PKBarcodeFormatQR', message)])));
}

describe('posterGeneric', () => {
  test('beside a generic style body: no issue at all; the same field keys in both bodies do not collide', () => {
    expect(found(poster)).toEqual([]);
  });

  test('alone: a missing-fallback-style warning (iOS 26 and earlier cannot add it), not an error', () => {
    const report = validatePass(edit(poster, (pass) => delete pass.generic));
    expect(report.ok).toBe(true);
    expect(report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual(['warning missing-fallback-style /posterGeneric']);
  });

  test('two of the five styles are still multiple-styles, posterGeneric or not; no style at all is missing-style', () => {
    expect(found(edit(poster, (pass) => (pass.coupon = { primaryFields: [] })))).toEqual(['error multiple-styles /coupon']);
    expect(found(edit(poster, (pass) => (delete pass.generic, delete pass.posterGeneric)))).toEqual(['error missing-style ']);
  });

  test('its face: one header field, four primary fields, one footer field, no secondary or auxiliary row', () => {
    const field = (key: string) => ({ key, value: key });
    expect(
      found(
        edit(poster, (pass) => {
          pass.posterGeneric.headerFields.push(field('h2'));
          pass.posterGeneric.primaryFields.push(field('p3'), field('p4'), field('p5'));
          pass.posterGeneric.footerFields.push(field('f2'));
          pass.posterGeneric.secondaryFields = [field('s1')];
        }),
      ),
    ).toEqual([
      'warning too-many-fields /posterGeneric/headerFields/1',
      'warning too-many-fields /posterGeneric/primaryFields/4',
      'warning too-many-fields /posterGeneric/footerFields/1',
      // Added last, so last in document order.
      'warning too-many-fields /posterGeneric/secondaryFields/0',
    ]);
  });

  test("footerFields elsewhere are known but not shown; their keys share the body's key space", () => {
    expect(found(edit(genericPass, (pass) => (pass.generic.footerFields = [{ key: 'note', value: 'x' }])))).toEqual([
      'warning too-many-fields /generic/footerFields/0',
    ]);
    const duplicate = edit(poster, (pass) => pass.posterGeneric.footerFields.push({ key: 'member', value: 'again' }));
    expect(found(duplicate)).toContain('error duplicate-field-key /posterGeneric/footerFields/1/key');
  });
});

describe('featuredActions', () => {
  test('a third action is too-many-featured-actions at the first one not shown', () => {
    const third = { identifier: 'shop', type: 'shop', url: 'https://example.org/shop' };
    expect(found(edit(poster, (pass) => pass.featuredActions.push(third)))).toEqual(['warning too-many-featured-actions /featuredActions/2']);
  });

  test("each type is checked against Apple's list; identifiers are unique; members are required (warnings)", () => {
    expect(
      found(
        edit(poster, (pass) => {
          pass.featuredActions[0].type = 'viewMembership';
          pass.featuredActions[1].identifier = 'benefits';
          delete pass.featuredActions[1].url;
        }),
      ),
    ).toEqual([
      'warning unknown-featured-action-type /featuredActions/0/type',
      'warning duplicate-featured-action /featuredActions/1/identifier',
      'warning missing-key /featuredActions/1/url',
    ]);
  });

  test('wrong JSON types are errors, unknown members warnings with a suggestion', () => {
    const report = validatePass(edit(poster, (pass) => (pass.featuredActions = ['benefits', { identifier: 1, type: 'call', url: 'tel:+15550100', URL: 'x' }])));
    expect(report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual([
      'error invalid-type /featuredActions/0',
      'error invalid-type /featuredActions/1/identifier',
      'warning unknown-key /featuredActions/1/URL',
    ]);
    expect(report.issues[2]?.message).toContain('did you mean `url`');
    expect(found(edit(poster, (pass) => (pass.featuredActions = {})))).toEqual(['error invalid-type /featuredActions']);
  });
});

describe('the four linear barcode formats of iOS 27', () => {
  test('valid messages of each give no issue', () => {
    expect(barcodeIssues('PKBarcodeFormatCode39', 'MEMBER-0042 $/+%.')).toEqual([]);
    expect(barcodeIssues('PKBarcodeFormatCodabar', 'A40156B')).toEqual([]);
    expect(barcodeIssues('PKBarcodeFormatCodabar', '123456789')).toEqual([]);
    expect(barcodeIssues('PKBarcodeFormatEAN13', '4006381333931')).toEqual([]);
    expect(barcodeIssues('PKBarcodeFormatI2of5', '00123456789012')).toEqual([]);
  });

  test('Code 39: "*" and non-ASCII cannot be drawn (errors); lower case needs Full ASCII (a warning); at the character', () => {
    const star = validatePass(edit(genericPass, (pass) => (pass.barcodes = [barcode('PKBarcodeFormatCode39', 'AB*C'), barcode('PKBarcodeFormatQR', 'x')])));
    expect(star.issues).toMatchObject([{ severity: 'error', code: 'barcode-message-unencodable', path: '/barcodes/0/message', offset: 2 }]);
    expect(barcodeIssues('PKBarcodeFormatCode39', 'Zürich')).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
    expect(barcodeIssues('PKBarcodeFormatCode39', 'member-42')).toEqual(['warning barcode-message-unencodable /barcodes/0/message']);
  });

  test('Codabar: A–D only as both start and stop, digits and - $ : / . + between', () => {
    expect(barcodeIssues('PKBarcodeFormatCodabar', 'A1234')).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
    expect(barcodeIssues('PKBarcodeFormatCodabar', '12B34')).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
    expect(barcodeIssues('PKBarcodeFormatCodabar', '12x4')).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
  });

  test('EAN-13: 13 digits with the right check digit; 12 digits a warning; other lengths, letters, a wrong check digit errors', () => {
    expect(ean13CheckDigit('400638133393')).toBe(1);
    expect(barcodeIssues('PKBarcodeFormatEAN13', '4006381333932')).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
    expect(barcodeIssues('PKBarcodeFormatEAN13', '400638133393')).toEqual(['warning barcode-message-unencodable /barcodes/0/message']);
    expect(barcodeIssues('PKBarcodeFormatEAN13', '40063813339')).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
    expect(barcodeIssues('PKBarcodeFormatEAN13', '400638133393X')).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
  });

  test('Interleaved 2 of 5: digits only (error), an even count (an odd one a warning)', () => {
    expect(barcodeIssues('PKBarcodeFormatI2of5', '12345')).toEqual(['warning barcode-message-unencodable /barcodes/0/message']);
    expect(barcodeIssues('PKBarcodeFormatI2of5', '12-45')).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
  });

  test("lengths: the width of Code 128's 80 characters; EAN-13 has its own", () => {
    expect(linearBarcodeProblem('A'.repeat(55), 'PKBarcodeFormatCode39')).toBeUndefined();
    expect(linearBarcodeProblem('A'.repeat(56), 'PKBarcodeFormatCode39')).toEqual({ kind: 'too-long', size: 56, max: 55 });
    expect(barcodeIssues('PKBarcodeFormatI2of5', '12'.repeat(51))).toEqual(['warning barcode-message-too-long /barcodes/0/message']);
    expect(barcodeIssues('PKBarcodeFormatCodabar', '1'.repeat(80))).toEqual(['warning barcode-message-too-long /barcodes/0/message']);
  });

  test('a new format without a classic one after it: missing-barcode-fallback (iOS 26 and earlier show no barcode)', () => {
    expect(found(edit(genericPass, (pass) => (pass.barcodes = [barcode('PKBarcodeFormatEAN13', '4006381333931')])))).toEqual([
      'warning missing-barcode-fallback /barcodes/0/format',
    ]);
    expect(found(edit(genericPass, (pass) => (pass.barcodes = [barcode('PKBarcodeFormatQR', 'x'), barcode('PKBarcodeFormatEAN13', '4006381333931')])))).toEqual(
      [],
    );
    const single = edit(genericPass, (pass) => {
      delete pass.barcodes;
      pass.barcode = barcode('PKBarcodeFormatI2of5', '1234');
    });
    expect(found(single)).toEqual(['warning missing-barcode-fallback /barcode/format']);
  });

  test('the messageEncoding does not change what a linear format holds', () => {
    expect(
      found(
        edit(
          genericPass,
          (pass) => (pass.barcodes = [{ ...barcode('PKBarcodeFormatEAN13', '4006381333932'), messageEncoding: 'utf-8' }, barcode('PKBarcodeFormatQR', 'x')]),
        ),
      ),
    ).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
  });

  test('buildPass checks a rendered message against a linear format (its fast path does not take a short ASCII message as fitting)', () => {
    const template: PassTemplate = {
      id: 1,
      name: 'Card',
      formatVersion: 1,
      passType: 'pass.com.example.card',
      description: {
        generic: { primaryFields: [{ key: 'n', value: 'Card' }] },
        barcodes: [
          { format: 'PKBarcodeFormatEAN13', message: '${code}', messageEncoding: 'iso-8859-1' },
          { format: 'PKBarcodeFormatQR', message: '${code}', messageEncoding: 'iso-8859-1' },
        ],
      },
      placeholder: ['code'],
    };
    expect(buildPass(template, { code: '4006381333931' }, issuer).barcodes?.[0]?.message).toBe('4006381333931');
    try {
      buildPass(template, { code: 'ABC' }, issuer);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PassValidationError);
      expect((error as PassValidationError).issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual(['barcode-message-unencodable /barcodes/0/message']);
    }
  });
});
