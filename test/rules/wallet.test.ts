import { describe, expect, test } from 'vitest';
import { buildPass, PassValidationError, type PassTemplate } from '../../src/index.js';
import { validatePass } from '../../src/pass/validate.js';
import { validateTemplate } from '../../src/template/validate.js';
import { draft, issuer } from '../fixtures.js';
import { boardingPass, eventTicketPass, genericPass } from '../pass/passes.js';

/** `severity code path` of every issue, in report order. */
function found(pass: unknown): string[] {
  return validatePass(pass).issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);
}

function edit(base: unknown, change: (pass: any) => void): unknown {
  const copy = draft(base);
  change(copy);
  return copy;
}

const field = (key: string) => ({ key, label: key, value: key });
const fields = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => field(`${prefix}${index}`));

describe('what Wallet shows: field counts per style and area (warnings)', () => {
  test('a fourth header field is too-many-fields at the first one not shown', () => {
    const report = validatePass(edit(genericPass, (pass) => (pass.generic.headerFields = fields('h', 4))));
    expect(report.ok).toBe(true);
    expect(report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual(['warning too-many-fields /generic/headerFields/3']);
  });

  test('primary fields: one on a generic pass, two on a boarding pass', () => {
    expect(found(edit(genericPass, (pass) => pass.generic.primaryFields.push(field('second'))))).toEqual(['warning too-many-fields /generic/primaryFields/1']);
    expect(found(boardingPass)).toEqual([]);
    expect(found(edit(boardingPass, (pass) => pass.boardingPass.primaryFields.push(field('via'))))).toEqual([
      'warning too-many-fields /boardingPass/primaryFields/2',
    ]);
  });

  test('auxiliary fields: four on most styles, five on a boarding pass', () => {
    expect(found(edit(eventTicketPass, (pass) => (pass.eventTicket.auxiliaryFields = fields('a', 5))))).toEqual([
      'warning too-many-fields /eventTicket/auxiliaryFields/4',
    ]);
    expect(found(edit(boardingPass, (pass) => (pass.boardingPass.auxiliaryFields = fields('a', 5))))).toEqual([]);
  });

  test('with a square barcode, a generic pass shares four places between secondary and auxiliary fields', () => {
    // genericPass has a QR code, two secondary and two auxiliary fields: full.
    expect(found(genericPass)).toEqual([]);
    expect(found(edit(genericPass, (pass) => pass.generic.auxiliaryFields.push(field('extra'))))).toEqual([
      'warning too-many-fields /generic/auxiliaryFields/2',
    ]);
    // A rectangular barcode leaves both rows: no warning.
    const pdf = edit(genericPass, (pass) => {
      pass.barcodes[0].format = 'PKBarcodeFormatPDF417';
      pass.generic.auxiliaryFields.push(field('extra'));
    });
    expect(found(pdf)).toEqual([]);
    // Wallet shows the first barcode it knows: an unknown format first does not count.
    const fallback = edit(genericPass, (pass) => {
      pass.barcodes.unshift({ format: 'PKBarcodeFormatFuture', message: 'x', messageEncoding: 'iso-8859-1' });
      pass.generic.auxiliaryFields.push(field('extra'));
    });
    expect(found(fallback)).toContain('warning too-many-fields /generic/auxiliaryFields/2');
  });

  test('a template with placeholders for the barcode format is not judged until rendered', () => {
    const template = {
      id: 1,
      name: 'T',
      formatVersion: 1,
      passType: 'pass.com.example.t',
      description: {
        barcode: { format: '${format}', message: 'x', messageEncoding: 'iso-8859-1' },
        generic: { secondaryFields: fields('s', 3), auxiliaryFields: fields('a', 3) },
      },
      placeholder: ['format'],
    };
    expect(validateTemplate(template).issues).toEqual([]);
  });
});

describe('barcodes: a message the encoding or the format cannot hold is an error', () => {
  const withBarcode = (barcode: Record<string, unknown>) =>
    edit(genericPass, (pass) => (pass.barcodes = [{ format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1', ...barcode }]));

  test('a character outside the encoding: barcode-message-unencodable at its offset', () => {
    const report = validatePass(withBarcode({ message: 'Café 5 €', messageEncoding: 'iso-8859-1' }));
    expect(report.ok).toBe(false);
    expect(report.issues).toEqual([
      expect.objectContaining({ severity: 'error', code: 'barcode-message-unencodable', path: '/barcodes/0/message', offset: 7 }),
    ]);
    expect(found(withBarcode({ message: 'Café', messageEncoding: 'us-ascii' }))).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
    expect(found(withBarcode({ message: 'Café 5 €', messageEncoding: 'utf-8' }))).toEqual([]);
    expect(found(withBarcode({ message: 'Café', messageEncoding: 'ISO-8859-1' }))).toEqual([]);
    // A lone surrogate has no UTF-8 form.
    expect(found(withBarcode({ message: 'a\uD800b', messageEncoding: 'utf-8' }))).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
  });

  test('QR holds 2,953 bytes, 4,296 alphanumerics or 7,089 digits', () => {
    expect(found(withBarcode({ message: 'a'.repeat(2953) }))).toEqual([]);
    expect(found(withBarcode({ message: 'a'.repeat(2954) }))).toEqual(['error barcode-message-too-long /barcodes/0/message']);
    expect(found(withBarcode({ message: 'A'.repeat(4296) }))).toEqual([]);
    expect(found(withBarcode({ message: 'A'.repeat(4297) }))).toEqual(['error barcode-message-too-long /barcodes/0/message']);
    expect(found(withBarcode({ message: '7'.repeat(7089) }))).toEqual([]);
    expect(found(withBarcode({ message: '7'.repeat(7090) }))).toEqual(['error barcode-message-too-long /barcodes/0/message']);
    // UTF-8 counts bytes: 1,477 two-byte characters are 2,954 bytes.
    expect(found(withBarcode({ message: 'é'.repeat(1477), messageEncoding: 'utf-8' }))).toEqual(['error barcode-message-too-long /barcodes/0/message']);
    expect(validatePass(withBarcode({ message: 'a'.repeat(3000) })).issues[0]?.message).toContain('3000 bytes; a QR symbol holds at most 2953');
  });

  test('PDF417 and Aztec limits', () => {
    const pdf = (message: string) => withBarcode({ message, format: 'PKBarcodeFormatPDF417' });
    expect(found(pdf('x'.repeat(1850)))).toEqual([]);
    expect(found(pdf('x'.repeat(1851)))).toEqual(['error barcode-message-too-long /barcodes/0/message']);
    expect(found(pdf('\u00e9'.repeat(1109)))).toEqual(['error barcode-message-too-long /barcodes/0/message']);
    const aztec = (message: string) => withBarcode({ message, format: 'PKBarcodeFormatAztec' });
    expect(found(aztec('1'.repeat(3832)))).toEqual([]);
    expect(found(aztec('1'.repeat(3833)))).toEqual(['error barcode-message-too-long /barcodes/0/message']);
    expect(found(aztec('a'.repeat(1915)))).toEqual(['error barcode-message-too-long /barcodes/0/message']);
  });

  test('Code 128 takes ASCII only; a long one is a warning', () => {
    const code128 = (message: string, messageEncoding = 'utf-8') => withBarcode({ message, format: 'PKBarcodeFormatCode128', messageEncoding });
    expect(found(code128('ABC-123'))).toEqual([]);
    expect(found(code128('Zürich'))).toEqual(['error barcode-message-unencodable /barcodes/0/message']);
    expect(found(code128('x'.repeat(81)))).toEqual(['warning barcode-message-too-long /barcodes/0/message']);
  });

  test('an encoding name Wallet does not know is a warning; a known one passmint does not model is accepted', () => {
    expect(found(withBarcode({ message: 'x', messageEncoding: 'latin-9000' }))).toEqual(['warning unknown-message-encoding /barcodes/0/messageEncoding']);
    expect(found(withBarcode({ message: 'テスト', messageEncoding: 'Shift_JIS' }))).toEqual([]);
  });

  test('the single barcode is checked too, and a template checks its static messages', () => {
    expect(found(edit(genericPass, (pass) => (pass.barcode = { format: 'PKBarcodeFormatPDF417', message: '€', messageEncoding: 'iso-8859-1' })))).toEqual([
      'error barcode-message-unencodable /barcode/message',
    ]);
    const template = {
      id: 1,
      name: 'T',
      formatVersion: 1,
      passType: 'pass.com.example.t',
      description: {
        barcodes: [
          { format: 'PKBarcodeFormatQR', message: '€ ${code}', messageEncoding: 'us-ascii' },
          { format: 'PKBarcodeFormatQR', message: '€', messageEncoding: 'us-ascii' },
        ],
        generic: {},
      },
      placeholder: ['code'],
    };
    expect(validateTemplate(template).issues.map((issue) => issue.path)).toEqual(['/description/barcodes/1/message']);
  });

  test('buildPass checks a rendered message: the fast path lets only short ASCII through', () => {
    const template: PassTemplate = {
      id: 1,
      name: 'T',
      formatVersion: 1,
      passType: 'pass.com.example.t',
      description: { barcodes: [{ format: 'PKBarcodeFormatQR', message: '${code}', messageEncoding: 'us-ascii' }], generic: {} },
      placeholder: ['code'],
    };
    expect(buildPass(template, { code: 'ABC-123' }, issuer).barcodes?.[0]?.message).toBe('ABC-123');
    let error: unknown;
    try {
      buildPass(template, { code: 'Ærø' }, issuer);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PassValidationError);
    expect((error as PassValidationError).issues.map((issue) => issue.code)).toEqual(['barcode-message-unencodable']);
  });
});

describe('keys of iOS 18 and iOS 26 are known', () => {
  test('upcoming pass information, boarding pass services, auxiliary store identifiers: no unknown-key', () => {
    const pass = edit(boardingPass, (p) => {
      p.auxiliaryStoreIdentifiers = [123456789];
      p.managementURL = 'https://example-air.com/manage';
      p.purchaseLoungeAccessURL = 'https://example-air.com/lounge';
      p.transitProviderPhoneNumber = '+41 44 000 00 00';
      p.semantics = { boardingZone: '3', departureCityName: 'Zürich', ticketFareClass: 'Economy', passengerName: { givenName: 'Ada' } };
      p.upcomingPassInformation = [
        {
          identifier: 'leg-2',
          name: 'EX456 Lisbon → Porto',
          type: 'event',
          isActive: false,
          dateInformation: { date: '2026-05-08T09:00Z' },
          semantics: { venueName: 'LIS' },
        },
      ];
    });
    expect(validatePass(pass)).toEqual({ ok: true, issues: [] });
  });

  test("relevantDates entries: date, startDate/endDate, and iOS 18's relevantDate", () => {
    const pass = edit(eventTicketPass, (p) => {
      p.relevantDates = [
        { date: '2026-07-14T19:30+02:00' },
        { startDate: '2026-07-15T18:00+02:00', endDate: '2026-07-15T23:00+02:00' },
        { relevantDate: '2026-07-16T19:30+02:00' },
      ];
    });
    expect(validatePass(pass)).toEqual({ ok: true, issues: [] });
    expect(found(edit(pass, (p) => (p.relevantDates[2].relevantDate = '2026-07-16 19:30')))).toEqual(['error invalid-date /relevantDates/2/relevantDate']);
  });

  test('an unknown semantic tag is a warning with a suggestion', () => {
    const report = validatePass(edit(eventTicketPass, (p) => (p.semantics = { venuName: 'Hall A', eventName: 'Concert' })));
    expect(report.ok).toBe(true);
    expect(report.issues).toEqual([expect.objectContaining({ severity: 'warning', code: 'unknown-key', path: '/semantics/venuName' })]);
    expect(report.issues[0]?.message).toContain('did you mean `venueName`');
  });

  test('an upcoming entry without its required keys is a warning; a wrong type an error', () => {
    expect(found(edit(eventTicketPass, (p) => (p.upcomingPassInformation = [{ name: 'Day 2', type: 'event', isActive: 'yes' }])))).toEqual([
      'error invalid-type /upcomingPassInformation/0/isActive',
      'warning missing-key /upcomingPassInformation/0/identifier',
    ]);
  });
});

test('buildPass validates in full when the encoding is a placeholder: a static message may not fit the rendered encoding', () => {
  const template: PassTemplate = {
    id: 1,
    name: 'T',
    formatVersion: 1,
    passType: 'pass.com.example.t',
    description: { barcodes: [{ format: 'PKBarcodeFormatQR', message: 'Café', messageEncoding: '${encoding}' }], generic: {} },
    placeholder: ['encoding'],
  };
  expect(buildPass(template, { encoding: 'iso-8859-1' }, issuer).barcodes?.[0]?.messageEncoding).toBe('iso-8859-1');
  expect(() => buildPass(template, { encoding: 'us-ascii' }, issuer)).toThrow(PassValidationError);
});

test('a template for the identifier Apple issued (pass.au.com.spinninghalf.demo..gig.x) builds a pass', () => {
  const template: PassTemplate = {
    id: 1,
    name: 'Gig',
    formatVersion: 1,
    passType: 'pass.au.com.spinninghalf.demo..gig.x',
    description: { eventTicket: { primaryFields: [{ key: 'gig', value: '${gig}' }] } },
    placeholder: ['gig'],
  };
  const pass = buildPass(template, { gig: 'Demo night' }, issuer);
  expect(pass.passTypeIdentifier).toBe('pass.au.com.spinninghalf.demo..gig.x');
  expect(validatePass(pass).issues.map((issue) => `${issue.severity} ${issue.code}`)).toEqual(['warning invalid-pass-type-identifier']);
});
