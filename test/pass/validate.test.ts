import { describe, expect, test } from 'vitest';
import type { Issue } from '../../src/issues.js';
import { validatePass, type ValidatePassOptions } from '../../src/pass/validate.js';
import { draft } from '../fixtures.js';
import { boardingPass, couponPass, eventTicketPass, genericPass, specPass, storeCardPass, validPasses } from './passes.js';

/** `severity code path` of every issue, in report order. */
function found(pass: unknown, options?: ValidatePassOptions): string[] {
  return validatePass(pass, options).issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);
}

/** A copy of `base` changed by `change`. */
function edit(base: unknown, change: (pass: any) => void): unknown {
  const copy = draft(base);
  change(copy);
  return copy;
}

function only(pass: unknown): Issue {
  const { issues } = validatePass(pass);
  expect(issues).toHaveLength(1);
  return issues[0] as Issue;
}

describe('validatePass: valid passes', () => {
  test.each(Object.entries(validPasses))('a realistic %s is valid without a single issue', (_, pass) => {
    expect(validatePass(pass)).toEqual({ ok: true, issues: [] });
  });

  test("the spec's example pass is valid, with only the hex-color warning", () => {
    expect(validatePass(specPass)).toEqual({
      ok: true,
      issues: [
        {
          severity: 'warning',
          code: 'hex-color',
          path: '/foregroundColor',
          message: '`foregroundColor` uses the hex form "#ffffff"; Apple documents rgb(255, 255, 255) (buildPass converts it)',
        },
      ],
    });
  });

  test('the input is not changed', () => {
    const pass = draft(boardingPass);
    validatePass(pass);
    expect(pass).toEqual(boardingPass);
  });
});

describe('validatePass: required keys and identifiers', () => {
  test.each(['description', 'formatVersion', 'organizationName', 'passTypeIdentifier', 'serialNumber', 'teamIdentifier'])(
    'a pass without %s: missing-key at its path',
    (key) => {
      const issue = only(edit(genericPass, (pass) => delete pass[key]));
      expect(issue).toEqual({ severity: 'error', code: 'missing-key', path: `/${key}`, message: `\`${key}\` is required` });
    },
  );

  test('a required key of the wrong type is invalid-type', () => {
    expect(found(edit(genericPass, (pass) => (pass.organizationName = 5)))).toEqual(['error invalid-type /organizationName']);
    expect(found(edit(genericPass, (pass) => (pass.description = { text: 'x' })))).toEqual(['error invalid-type /description']);
  });

  test('an empty description is fine (the spec allows it)', () => {
    expect(validatePass(edit(genericPass, (pass) => (pass.description = ''))).issues).toEqual([]);
  });

  test.each([2, 0, '1', 1.5, null])('formatVersion %j is invalid-format-version', (version) => {
    expect(found(edit(genericPass, (pass) => (pass.formatVersion = version)))).toEqual(['error invalid-format-version /formatVersion']);
  });

  test.each(['com.example.event', 'pass.', 'Pass.com.example', ''])(
    'passTypeIdentifier %j (no certificate can have it) is an error invalid-pass-type-identifier',
    (id) => {
      expect(found(edit(genericPass, (pass) => (pass.passTypeIdentifier = id)))).toEqual(['error invalid-pass-type-identifier /passTypeIdentifier']);
    },
  );

  // Apple issued a certificate for exactly `pass.au.com.spinninghalf.demo..gig.x`:
  // what follows `pass.` is Apple's to decide, so other shapes are only a warning.
  test.each(['pass.au.com.spinninghalf.demo..gig.x', 'pass.example', 'pass.com..example', 'pass.com.example/x', 'pass.com.example_tickets'])(
    'passTypeIdentifier %j (a shape Apple may issue) is a warning invalid-pass-type-identifier',
    (id) => {
      const report = validatePass(edit(genericPass, (pass) => (pass.passTypeIdentifier = id)));
      expect(report.ok).toBe(true);
      expect(report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual([
        'warning invalid-pass-type-identifier /passTypeIdentifier',
      ]);
    },
  );

  test('pass type identifiers in reverse-DNS form pass', () => {
    for (const id of ['pass.com.example', 'pass.com.example.membership-card', 'pass.io.example.a1.B2']) {
      expect(validatePass(edit(genericPass, (pass) => (pass.passTypeIdentifier = id))).issues).toEqual([]);
    }
  });

  test.each(['a93a5cm278', 'A93A5CM27', 'A93A5CM2789', 'A93A5-M278'])('teamIdentifier %j is a warning invalid-team-identifier', (team) => {
    const report = validatePass(edit(genericPass, (pass) => (pass.teamIdentifier = team)));
    expect(report.ok).toBe(true);
    expect(found(edit(genericPass, (pass) => (pass.teamIdentifier = team)))).toEqual(['warning invalid-team-identifier /teamIdentifier']);
  });

  test('an empty serial number is an error', () => {
    expect(found(edit(genericPass, (pass) => (pass.serialNumber = '')))).toEqual(['error empty-serial-number /serialNumber']);
  });

  test('a serial number that is not URL-safe is a warning pointing at the first such character', () => {
    const issue = only(edit(genericPass, (pass) => (pass.serialNumber = 'AB 12/34')));
    expect(issue).toMatchObject({ severity: 'warning', code: 'unsafe-serial-number', path: '/serialNumber', offset: 2 });
  });

  test('an authentication token shorter than 16 characters is an error', () => {
    const issue = only(edit(genericPass, (pass) => (pass.authenticationToken = '0123456789abcde')));
    expect(issue).toMatchObject({ severity: 'error', code: 'short-authentication-token', path: '/authenticationToken' });
    expect(validatePass(edit(genericPass, (pass) => (pass.authenticationToken = '0123456789abcdef'))).issues).toEqual([]);
  });
});

describe('validatePass: web service', () => {
  const http = edit(genericPass, (pass) => (pass.webServiceURL = 'http://localhost:8080/passes'));

  test('plain http is an error …', () => {
    expect(validatePass(http).ok).toBe(false);
    expect(found(http)).toEqual(['error insecure-web-service-url /webServiceURL']);
  });

  test('… and a warning with allowHttp', () => {
    expect(validatePass(http, { allowHttp: true }).ok).toBe(true);
    expect(found(http, { allowHttp: true })).toEqual(['warning insecure-web-service-url /webServiceURL']);
  });

  test.each(['passes.example.com', '/relative/path', 'ftp://example.com/', 'javascript:alert(1)', ''])('%j is invalid-web-service-url', (url) => {
    expect(found(edit(genericPass, (pass) => (pass.webServiceURL = url)))).toEqual(['error invalid-web-service-url /webServiceURL']);
  });

  test('a URL without a token is an unpaired-web-service error, a token without a URL a warning (Wallet opens such passes), at the missing key', () => {
    expect(found(edit(genericPass, (pass) => delete pass.webServiceURL))).toEqual(['warning unpaired-web-service /webServiceURL']);
    expect(found(edit(genericPass, (pass) => delete pass.authenticationToken))).toEqual(['error unpaired-web-service /authenticationToken']);
  });

  test('neither is fine', () => {
    const pass = edit(genericPass, (p) => {
      delete p.webServiceURL;
      delete p.authenticationToken;
    });
    expect(validatePass(pass)).toEqual({ ok: true, issues: [] });
  });

  test('appLaunchURL needs associatedStoreIdentifiers, with at least one entry', () => {
    expect(found(edit(storeCardPass, (pass) => delete pass.associatedStoreIdentifiers))).toEqual([
      'warning missing-store-identifiers /associatedStoreIdentifiers',
    ]);
    expect(found(edit(storeCardPass, (pass) => (pass.associatedStoreIdentifiers = [])))).toEqual([
      'warning missing-store-identifiers /associatedStoreIdentifiers',
    ]);
    expect(found(edit(storeCardPass, (pass) => (pass.associatedStoreIdentifiers = ['123456789'])))).toEqual([
      'error invalid-type /associatedStoreIdentifiers/0',
    ]);
  });
});

describe('validatePass: style bodies', () => {
  test('a pass without a style key is missing-style at the root', () => {
    expect(found(edit(genericPass, (pass) => delete pass.generic))).toEqual(['error missing-style ']);
  });

  test('a second style key is multiple-styles at its path, naming the first', () => {
    const issue = only(edit(genericPass, (pass) => (pass.coupon = {})));
    expect(issue).toMatchObject({ severity: 'error', code: 'multiple-styles', path: '/coupon' });
    expect(issue.message).toContain('/generic');
  });

  test('a style body must be an object', () => {
    expect(found(edit(genericPass, (pass) => (pass.generic = [])))).toEqual(['error invalid-type /generic']);
  });

  test('a boarding pass needs transitType', () => {
    expect(found(edit(boardingPass, (pass) => delete pass.boardingPass.transitType))).toEqual(['error missing-transit-type /boardingPass/transitType']);
  });

  test.each(['PKTransitTypePlane', 'air', 3])('transitType %j is invalid-transit-type', (type) => {
    expect(found(edit(boardingPass, (pass) => (pass.boardingPass.transitType = type)))).toEqual(['error invalid-transit-type /boardingPass/transitType']);
  });

  test('transitType in another style is unexpected-transit-type', () => {
    expect(found(edit(genericPass, (pass) => (pass.generic.transitType = 'PKTransitTypeAir')))).toEqual([
      'warning unexpected-transit-type /generic/transitType',
    ]);
  });

  test('groupingIdentifier is allowed on event tickets and boarding passes only', () => {
    expect(validatePass(eventTicketPass).issues).toEqual([]);
    expect(validatePass(boardingPass).issues).toEqual([]);
    expect(found(edit(genericPass, (pass) => (pass.groupingIdentifier = 'x')))).toEqual(['warning unexpected-grouping-identifier /groupingIdentifier']);
  });

  test('a field array must be an array of objects', () => {
    expect(found(edit(genericPass, (pass) => (pass.generic.headerFields = { key: 'a', value: 'b' })))).toEqual(['error invalid-type /generic/headerFields']);
    expect(found(edit(genericPass, (pass) => (pass.generic.headerFields = ['a'])))).toEqual(['error invalid-type /generic/headerFields/0']);
  });
});

describe('validatePass: fields', () => {
  test('field keys are unique across all arrays: the second is duplicate-field-key, naming the first', () => {
    const issue = only(edit(boardingPass, (pass) => (pass.boardingPass.backFields[1].key = 'gate')));
    expect(issue).toMatchObject({ severity: 'error', code: 'duplicate-field-key', path: '/boardingPass/backFields/1/key' });
    expect(issue.message).toContain('/boardingPass/headerFields/0/key');
  });

  test('a third use is reported too, each naming the first', () => {
    const pass = edit(genericPass, (p) => {
      p.generic.secondaryFields[0].key = 'event';
      p.generic.auxiliaryFields[0].key = 'event';
    });
    expect(found(pass)).toEqual(['error duplicate-field-key /generic/secondaryFields/0/key', 'error duplicate-field-key /generic/auxiliaryFields/0/key']);
  });

  test('key and value are required', () => {
    expect(found(edit(genericPass, (pass) => delete pass.generic.primaryFields[0].key))).toEqual(['error missing-key /generic/primaryFields/0/key']);
    expect(found(edit(genericPass, (pass) => delete pass.generic.primaryFields[0].value))).toEqual(['error missing-key /generic/primaryFields/0/value']);
  });

  test.each([true, null, ['a'], { text: 'a' }])('value %j is invalid-type', (value) => {
    expect(found(edit(genericPass, (pass) => (pass.generic.primaryFields[0].value = value)))).toEqual(['error invalid-type /generic/primaryFields/0/value']);
  });

  test('a label-less primary field is fine (the spec shows one)', () => {
    expect(genericPass.generic.primaryFields[0]).not.toHaveProperty('label');
    expect(validatePass(genericPass).issues).toEqual([]);
  });

  test('textAlignment on primary and back fields is a warning: Wallet ignores it there', () => {
    expect(found(edit(genericPass, (pass) => (pass.generic.primaryFields[0].textAlignment = 'PKTextAlignmentLeft')))).toEqual([
      'warning text-alignment-not-allowed /generic/primaryFields/0/textAlignment',
    ]);
    expect(found(edit(couponPass, (pass) => (pass.coupon.backFields[0].textAlignment = 'PKTextAlignmentLeft')))).toEqual([
      'warning text-alignment-not-allowed /coupon/backFields/0/textAlignment',
    ]);
  });

  test.each(['PKTextAlignmentJustified', 'right', 1])('textAlignment %j is invalid-text-alignment', (alignment) => {
    expect(found(edit(genericPass, (pass) => (pass.generic.secondaryFields[1].textAlignment = alignment)))).toEqual([
      'error invalid-text-alignment /generic/secondaryFields/1/textAlignment',
    ]);
  });

  test('dateStyle and timeStyle take PKDateStyle values', () => {
    expect(found(edit(boardingPass, (pass) => (pass.boardingPass.auxiliaryFields[0].timeStyle = 'PKDateStyleTiny')))).toEqual([
      'error invalid-date-style /boardingPass/auxiliaryFields/0/timeStyle',
    ]);
  });

  test('a date-styled value that is not a date is date-style-needs-date', () => {
    for (const value of ['Tonight', 1746600000]) {
      expect(found(edit(boardingPass, (pass) => (pass.boardingPass.auxiliaryFields[0].value = value)))).toEqual([
        'error date-style-needs-date /boardingPass/auxiliaryFields/0/value',
      ]);
    }
  });

  test('a date-styled value that is a malformed date is invalid-date, saying why', () => {
    const issue = only(edit(boardingPass, (pass) => (pass.boardingPass.auxiliaryFields[0].value = '2026-05-07T09:50:00+0200')));
    expect(issue).toMatchObject({ severity: 'error', code: 'invalid-date', path: '/boardingPass/auxiliaryFields/0/value' });
    expect(issue.message).toContain('needs a colon');
  });

  test('only one of dateStyle and timeStyle is a warning incomplete-date-style', () => {
    const pass = edit(boardingPass, (p) => delete p.boardingPass.auxiliaryFields[0].dateStyle);
    expect(validatePass(pass).ok).toBe(true);
    expect(found(pass)).toEqual(['warning incomplete-date-style /boardingPass/auxiliaryFields/0/timeStyle']);
  });

  test('numberStyle needs a number value and a known style', () => {
    expect(found(edit(couponPass, (pass) => (pass.coupon.primaryFields[0].value = '20 %')))).toEqual([
      'error number-style-needs-number /coupon/primaryFields/0/value',
    ]);
    expect(found(edit(couponPass, (pass) => (pass.coupon.primaryFields[0].numberStyle = 'PKNumberStylePercentage')))).toEqual([
      'error invalid-number-style /coupon/primaryFields/0/numberStyle',
    ]);
  });

  test('currencyCode needs a number value and three upper-case letters', () => {
    expect(found(edit(couponPass, (pass) => (pass.coupon.secondaryFields[0].value = '5 €')))).toEqual([
      'error currency-code-needs-number /coupon/secondaryFields/0/value',
    ]);
    for (const code of ['eur', 'EURO', '€', 978]) {
      const pass = edit(couponPass, (p) => (p.coupon.secondaryFields[0].currencyCode = code));
      const expected = typeof code === 'number' ? 'invalid-type' : 'invalid-currency-code';
      expect(found(pass)).toEqual([`error ${expected} /coupon/secondaryFields/0/currencyCode`]);
    }
  });

  test('numberStyle and currencyCode together is number-style-with-currency', () => {
    expect(found(edit(couponPass, (pass) => (pass.coupon.primaryFields[0].currencyCode = 'EUR')))).toEqual([
      'error number-style-with-currency /coupon/primaryFields/0/currencyCode',
    ]);
  });

  test('data detectors: known types only, and a warning outside back fields', () => {
    expect(found(edit(eventTicketPass, (pass) => (pass.eventTicket.backFields[0].dataDetectorTypes = ['PKDataDetectorTypeEmail'])))).toEqual([
      'error invalid-data-detector /eventTicket/backFields/0/dataDetectorTypes/0',
    ]);
    const outside = edit(eventTicketPass, (pass) => (pass.eventTicket.secondaryFields[0].dataDetectorTypes = ['PKDataDetectorTypeLink']));
    expect(validatePass(outside).ok).toBe(true);
    expect(found(outside)).toEqual(['warning data-detectors-outside-back /eventTicket/secondaryFields/0/dataDetectorTypes']);
  });

  test('a changeMessage without %@ is a warning: Wallet shows it without the new value', () => {
    expect(found(edit(boardingPass, (pass) => (pass.boardingPass.headerFields[0].changeMessage = 'The gate changed')))).toEqual([
      'warning invalid-change-message /boardingPass/headerFields/0/changeMessage',
    ]);
  });

  test('attributedValue supports only <a href>: other tags are warnings at their offset', () => {
    const pass = edit(boardingPass, (p) => (p.boardingPass.backFields[1].attributedValue = 'See <b>terms</b> or <a name="x">here</a>'));
    const issues = validatePass(pass).issues;
    expect(issues.map((issue) => [issue.severity, issue.code, issue.path, issue.offset])).toEqual([
      ['warning', 'unsupported-attributed-value', '/boardingPass/backFields/1/attributedValue', 4],
      ['warning', 'unsupported-attributed-value', '/boardingPass/backFields/1/attributedValue', 20],
    ]);
  });

  test('row is 0 or 1', () => {
    expect(found(edit(boardingPass, (pass) => (pass.boardingPass.auxiliaryFields[1].row = 2)))).toEqual([
      'error out-of-range /boardingPass/auxiliaryFields/1/row',
    ]);
  });

  test('an unknown field key is a warning unknown-key, with a suggestion', () => {
    const pass = edit(genericPass, (p) => (p.generic.secondaryFields[0].lable = 'Venue'));
    const issue = only(pass);
    expect(issue).toMatchObject({ severity: 'warning', code: 'unknown-key', path: '/generic/secondaryFields/0/lable' });
    expect(issue.message).toContain('did you mean `label`?');
  });
});

describe('validatePass: barcodes', () => {
  test.each(['PKBarcodeFormatQRCode', 'QR', 7])('format %j is invalid-barcode-format', (format) => {
    expect(found(edit(genericPass, (pass) => (pass.barcodes[0].format = format)))).toEqual(['error invalid-barcode-format /barcodes/0/format']);
  });

  test('Code 128 is allowed in barcodes but not in the single barcode', () => {
    expect(validatePass(boardingPass).issues).toEqual([]);
    expect(found(edit(genericPass, (pass) => (pass.barcode.format = 'PKBarcodeFormatCode128')))).toEqual(['error code128-in-barcode /barcode/format']);
  });

  test('message, format and messageEncoding are required', () => {
    expect(found(edit(genericPass, (pass) => (pass.barcode = {})))).toEqual([
      'error missing-key /barcode/message',
      'error missing-key /barcode/format',
      'error missing-key /barcode/messageEncoding',
    ]);
  });

  test('barcodes must be an array of barcode objects', () => {
    expect(found(edit(genericPass, (pass) => (pass.barcodes = pass.barcode)))).toEqual(['error invalid-type /barcodes']);
    expect(found(edit(genericPass, (pass) => (pass.barcodes = ['ABC'])))).toEqual(['error invalid-type /barcodes/0']);
  });
});

describe('validatePass: colors', () => {
  test.each(['rgb(60, 65, 76)', 'rgb(0,0,0)', 'rgb( 255 , 255 , 255 )', 'rgb(007, 65, 76)'])('%j is fine', (color) => {
    expect(validatePass(edit(genericPass, (pass) => (pass.backgroundColor = color))).issues).toEqual([]);
  });

  test.each(['#fff', '#3C414C', '#3c414c'])('%j is a warning hex-color', (color) => {
    expect(found(edit(genericPass, (pass) => (pass.labelColor = color)))).toEqual(['warning hex-color /labelColor']);
  });

  test.each(['red', 'rgb(256, 0, 0)', 'rgb(1.5, 0, 0)', 'rgba(0, 0, 0, 1)', 'rgb(0, 0)', '#ffff', '#gggggg', ''])('%j is invalid-color', (color) => {
    expect(found(edit(genericPass, (pass) => (pass.foregroundColor = color)))).toEqual(['error invalid-color /foregroundColor']);
  });

  test('a color that is not a string is invalid-type', () => {
    expect(found(edit(genericPass, (pass) => (pass.backgroundColor = [60, 65, 76])))).toEqual(['error invalid-type /backgroundColor']);
  });
});

describe('validatePass: dates', () => {
  test.each(['2026-05-07T10:30-05:00', '2026-05-07T10:30:00Z', '2026-05-07T10:30Z', '2024-02-29T23:59:59+14:00'])('%j is fine', (date) => {
    expect(validatePass(edit(genericPass, (pass) => (pass.relevantDate = date))).issues).toEqual([]);
  });

  test.each([
    ['2026-05-07T10:30:00+0000', 'needs a colon'],
    ['2026-05-07T10:30:00.000Z', 'fractional seconds'],
    ['2026-05-07T10:30:00', 'time zone is required'],
    ['2026-05-07', 'time and a time zone'],
    ['2026-02-29T10:00Z', 'no such date'],
    ['2026-05-07T24:00Z', 'no such time'],
    ['07.05.2026 10:30', 'expected YYYY-MM-DD'],
  ])('%j is invalid-date (%s)', (date, why) => {
    const issue = only(edit(genericPass, (pass) => (pass.expirationDate = date)));
    expect(issue).toMatchObject({ severity: 'error', code: 'invalid-date', path: '/expirationDate' });
    expect(issue.message).toContain(why);
  });
});

describe('validatePass: locations, beacons, NFC and other keys', () => {
  test.each([
    ['latitude', 90.5],
    ['latitude', -91],
    ['longitude', 180.01],
    ['longitude', -181],
  ])('%s %d is out-of-range', (key, value) => {
    expect(found(edit(boardingPass, (pass) => (pass.locations[0][key] = value)))).toEqual([`error out-of-range /locations/0/${key}`]);
  });

  test('a location needs latitude and longitude', () => {
    expect(found(edit(boardingPass, (pass) => delete pass.locations[0].longitude))).toEqual(['error missing-key /locations/0/longitude']);
  });

  test.each([
    ['major', 65536, 'out-of-range'],
    ['minor', -1, 'out-of-range'],
    ['major', 1.5, 'invalid-type'],
    ['minor', '1', 'invalid-type'],
  ])('beacon %s %j is %s', (key, value, code) => {
    expect(found(edit(eventTicketPass, (pass) => (pass.beacons[0][key] = value)))).toEqual([`error ${code} /beacons/0/${key}`]);
  });

  test('a beacon needs a proximityUUID', () => {
    expect(found(edit(eventTicketPass, (pass) => delete pass.beacons[0].proximityUUID))).toEqual(['error missing-key /beacons/0/proximityUUID']);
  });

  test('an NFC message is at most 64 bytes of UTF-8', () => {
    expect(validatePass(edit(storeCardPass, (pass) => (pass.nfc.message = 'x'.repeat(64)))).issues).toEqual([]);
    expect(found(edit(storeCardPass, (pass) => (pass.nfc.message = 'x'.repeat(65))))).toEqual(['error nfc-message-too-long /nfc/message']);
    // 22 characters, but 66 bytes.
    expect(found(edit(storeCardPass, (pass) => (pass.nfc.message = '€'.repeat(22))))).toEqual(['error nfc-message-too-long /nfc/message']);
  });

  test('maxDistance is a non-negative number', () => {
    expect(found(edit(eventTicketPass, (pass) => (pass.maxDistance = -1)))).toEqual(['error out-of-range /maxDistance']);
    expect(found(edit(eventTicketPass, (pass) => (pass.maxDistance = '200')))).toEqual(['error invalid-type /maxDistance']);
  });

  test.each([
    ['voided', 'yes'],
    ['sharingProhibited', 1],
    ['logoText', 5],
    ['userInfo', 'x'],
    ['locations', {}],
  ])('%s %j is invalid-type', (key, value) => {
    expect(found(edit(genericPass, (pass) => (pass[key] = value)))).toEqual([`error invalid-type /${key}`]);
  });

  test('unknown top-level keys are kept but warned, with a suggestion for a typo', () => {
    const pass = edit(genericPass, (p) => {
      p.backgroundColour = 'rgb(0, 0, 0)';
      p['x/y~z'] = 1;
    });
    const { ok, issues } = validatePass(pass);
    expect(ok).toBe(true);
    expect(issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual(['unknown-key /backgroundColour', 'unknown-key /x~1y~0z']);
    expect(issues[0]?.message).toContain('did you mean `backgroundColor`?');
  });

  test('undefined members count as absent (JSON.stringify drops them)', () => {
    expect(validatePass(edit(genericPass, (pass) => (pass.logoText = undefined))).issues).toEqual([]);
    expect(found(edit(genericPass, (pass) => (pass.teamIdentifier = undefined)))).toEqual(['error missing-key /teamIdentifier']);
  });
});

describe('validatePass: reports', () => {
  test('issues come in document order, a missing member after its parent’s existing ones', () => {
    const pass = edit(genericPass, (p) => {
      delete p.teamIdentifier;
      p.foregroundColor = 'white';
      p.generic.auxiliaryFields[0].key = 'event';
      p.barcode.format = 'QR';
    });
    expect(found(pass)).toEqual([
      'error invalid-barcode-format /barcode/format',
      'error invalid-color /foregroundColor',
      'error duplicate-field-key /generic/auxiliaryFields/0/key',
      'error missing-key /teamIdentifier',
    ]);
  });

  test('one problem gives one issue, even where the schema and the rules both see it', () => {
    expect(found(edit(genericPass, (pass) => (pass.formatVersion = '1')))).toEqual(['error invalid-format-version /formatVersion']);
    expect(found(edit(genericPass, (pass) => (pass.generic.primaryFields[0].textAlignment = 3)))).toEqual([
      'error invalid-text-alignment /generic/primaryFields/0/textAlignment',
    ]);
  });

  test.each([null, undefined, 42, 'pass', [], true])('%j is not a pass: invalid-type at the root', (value) => {
    expect(validatePass(value)).toEqual({
      ok: false,
      issues: [expect.objectContaining({ severity: 'error', code: 'invalid-type', path: '' })],
    });
  });

  test('hostile values give a report, never an exception', () => {
    const cyclic = draft(genericPass);
    cyclic.userInfo = cyclic;
    cyclic.generic.backFields = [{ key: 'self', value: 'x', semantics: cyclic }];
    const throwing = Object.defineProperty(draft(genericPass), 'generic', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const trap = new Proxy(draft(genericPass), {
      ownKeys() {
        throw new Error('no keys');
      },
    });
    expect(validatePass(cyclic)).toEqual({ ok: true, issues: [] });
    for (const value of [throwing, revocable.proxy, trap]) {
      expect(validatePass(value)).toEqual({
        ok: false,
        issues: [{ severity: 'error', code: 'invalid-pass', path: '', message: 'The pass could not be read (a property access threw)' }],
      });
    }
    const odd = edit(genericPass, (pass) => {
      pass.logoText = 10n;
      pass.voided = Symbol('x');
      pass[Symbol('hidden')] = 1;
    });
    expect(found(odd)).toEqual(['error invalid-type /logoText', 'error invalid-type /voided']);
    expect(validatePass(odd).issues[0]?.message).toBe('`logoText` must be a string, not the BigInt 10n');
  });

  test('the options argument is optional and tolerant', () => {
    expect(validatePass(genericPass, {}).ok).toBe(true);
    expect(validatePass(genericPass, null as never).ok).toBe(true);
  });
});
