import { describe, expect, test } from 'vitest';
import { checkEventShape, checkPassShape, checkTemplateShape } from '../../src/schema/check.js';
import { draft } from '../fixtures.js';
import { boardingPass, couponPass, genericPass, storeCardPass, validPasses } from '../pass/passes.js';

const found = (issues: readonly { code: string; path: string }[]) => issues.map((issue) => `${issue.code} ${issue.path}`);

function edit(base: unknown, change: (value: any) => void): unknown {
  const copy = draft(base);
  change(copy);
  return copy;
}

describe('checkPassShape (pass.schema.json)', () => {
  test.each(Object.entries(validPasses))('the %s fixture matches the schema', (_, pass) => {
    expect(checkPassShape(pass)).toEqual([]);
  });

  test('required members: missing-key at the missing member, with a readable message', () => {
    expect(checkPassShape(edit(genericPass, (pass) => delete pass.teamIdentifier))).toEqual([
      { severity: 'error', code: 'missing-key', path: '/teamIdentifier', message: '`teamIdentifier` is required' },
    ]);
  });

  test('enums, consts and patterns map to the specific codes', () => {
    const pass = edit(boardingPass, (p) => {
      p.formatVersion = 2;
      p.passTypeIdentifier = 'com.example';
      p.foregroundColor = 'blue';
      p.relevantDate = '2026-05-07T10:30:00.5Z';
      p.barcodes[0].format = 'QR';
      p.boardingPass.transitType = 'PKTransitTypeRocket';
      p.boardingPass.secondaryFields[1].textAlignment = 'right';
      p.boardingPass.auxiliaryFields[0].timeStyle = 'short';
      p.boardingPass.backFields[0].dataDetectorTypes = ['phone'];
      // Warnings of validatePass, not refusals: the schema accepts them.
      p.boardingPass.headerFields[0].changeMessage = 'no placeholder';
    });
    expect(found(checkPassShape(pass)).sort()).toEqual(
      [
        'invalid-format-version /formatVersion',
        'invalid-pass-type-identifier /passTypeIdentifier',
        'invalid-color /foregroundColor',
        'invalid-date /relevantDate',
        'invalid-barcode-format /barcodes/0/format',
        'invalid-transit-type /boardingPass/transitType',
        'invalid-text-alignment /boardingPass/secondaryFields/1/textAlignment',
        'invalid-date-style /boardingPass/auxiliaryFields/0/timeStyle',
        'invalid-data-detector /boardingPass/backFields/0/dataDetectorTypes/0',
      ].sort(),
    );
  });

  test('style rules: missing-style, multiple-styles, transitType, groupingIdentifier, textAlignment', () => {
    expect(found(checkPassShape(edit(genericPass, (pass) => delete pass.generic)))).toEqual(['missing-style ']);
    expect(found(checkPassShape(edit(genericPass, (pass) => (pass.storeCard = {}))))).toEqual(['multiple-styles /storeCard']);
    expect(found(checkPassShape(edit(boardingPass, (pass) => delete pass.boardingPass.transitType)))).toEqual(['missing-key /boardingPass/transitType']);
    // What Wallet ignores rather than refuses is validatePass's warning, not a schema failure.
    expect(found(checkPassShape(edit(genericPass, (pass) => (pass.generic.transitType = 'PKTransitTypeAir'))))).toEqual([]);
    expect(found(checkPassShape(edit(genericPass, (pass) => (pass.groupingIdentifier = 'g'))))).toEqual([]);
    expect(found(checkPassShape(edit(genericPass, (pass) => (pass.generic.primaryFields[0].textAlignment = 'PKTextAlignmentLeft'))))).toEqual([]);
    expect(found(checkPassShape(edit(genericPass, (pass) => (pass.passTypeIdentifier = 'pass.au.com.spinninghalf.demo..gig.x'))))).toEqual([]);
    expect(found(checkPassShape(edit(genericPass, (pass) => (pass.generic.primaryFields[0].textAlignment = 7))))).toEqual([
      'invalid-text-alignment /generic/primaryFields/0/textAlignment',
    ]);
  });

  test('number and date styles need matching values', () => {
    expect(found(checkPassShape(edit(couponPass, (pass) => (pass.coupon.primaryFields[0].value = '20 %'))))).toEqual([
      'number-style-needs-number /coupon/primaryFields/0/value',
    ]);
    expect(found(checkPassShape(edit(couponPass, (pass) => (pass.coupon.secondaryFields[0].value = '5 €'))))).toEqual([
      'currency-code-needs-number /coupon/secondaryFields/0/value',
    ]);
    expect(found(checkPassShape(edit(couponPass, (pass) => (pass.coupon.primaryFields[0].currencyCode = 'EUR'))))).toEqual([
      'number-style-with-currency /coupon/primaryFields/0/currencyCode',
    ]);
    expect(found(checkPassShape(edit(boardingPass, (pass) => (pass.boardingPass.auxiliaryFields[0].value = 'soon'))))).toEqual([
      'date-style-needs-date /boardingPass/auxiliaryFields/0/value',
    ]);
    expect(found(checkPassShape(edit(boardingPass, (pass) => (pass.boardingPass.auxiliaryFields[0].value = 5))))).toEqual([
      'date-style-needs-date /boardingPass/auxiliaryFields/0/value',
    ]);
  });

  test('identifiers, web service, ranges and lengths', () => {
    const pass = edit(storeCardPass, (p) => {
      p.serialNumber = '';
      p.authenticationToken = 'short';
      delete p.associatedStoreIdentifiers;
      p.nfc.message = 'x'.repeat(65);
      p.locations = [{ latitude: 100, longitude: 0 }];
      p.barcode = { format: 'PKBarcodeFormatCode128', message: 'x', messageEncoding: 'iso-8859-1' };
    });
    expect(found(checkPassShape(pass)).sort()).toEqual(
      [
        'empty-serial-number /serialNumber',
        'short-authentication-token /authenticationToken',
        'nfc-message-too-long /nfc/message',
        'out-of-range /locations/0/latitude',
        'code128-in-barcode /barcode/format',
      ].sort(),
    );
    // A token without a web service is only a warning of validatePass (Wallet opens such passes): the schema accepts it.
    expect(found(checkPassShape(edit(genericPass, (p) => delete p.webServiceURL)))).toEqual([]);
    expect(found(checkPassShape(edit(genericPass, (p) => delete p.authenticationToken)))).toEqual(['unpaired-web-service /authenticationToken']);
  });

  test('one issue per member: the most specific wins', () => {
    expect(checkPassShape(edit(genericPass, (pass) => (pass.formatVersion = '1')))).toEqual([
      { severity: 'error', code: 'invalid-format-version', path: '/formatVersion', message: '`formatVersion` must be 1' },
    ]);
    expect(found(checkPassShape(edit(genericPass, (pass) => (pass.generic.primaryFields[0].value = true))))).toEqual([
      'invalid-type /generic/primaryFields/0/value',
    ]);
  });

  test('not an object, or unreadable: an issue at the root, never an exception', () => {
    expect(checkPassShape(null)).toEqual([{ severity: 'error', code: 'invalid-type', path: '', message: 'A pass must be an object' }]);
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(found(checkPassShape(revocable.proxy))).toEqual(['invalid-pass ']);
  });
});

const template = {
  id: 1,
  name: 'Member',
  formatVersion: 1,
  passType: 'pass.com.example.member',
  description: { generic: {} },
  placeholder: ['name'],
};

describe('checkTemplateShape (pass-template.schema.json)', () => {
  test('a well-formed template has no issue', () => {
    expect(checkTemplateShape(template)).toEqual([]);
  });

  test('every member checked, each issue invalid-template at the bad member', () => {
    const bad = { id: 1.5, name: 2, formatVersion: 2, passType: 'com.example', description: [], placeholder: ['a', 3] };
    expect(checkTemplateShape(bad)).toEqual([
      { severity: 'error', code: 'invalid-template', path: '/id', message: '`id` must be an integer' },
      { severity: 'error', code: 'invalid-template', path: '/name', message: '`name` must be a string' },
      { severity: 'error', code: 'invalid-template', path: '/formatVersion', message: '`formatVersion` must be 1' },
      { severity: 'error', code: 'invalid-template', path: '/passType', message: '`passType` must start with "pass."' },
      { severity: 'error', code: 'invalid-template', path: '/description', message: '`description` must be an object' },
      { severity: 'error', code: 'invalid-template', path: '/placeholder/1', message: '`placeholder/1` must be a string' },
    ]);
  });

  test('all six members are required', () => {
    expect(found(checkTemplateShape({}))).toEqual([
      'invalid-template /id',
      'invalid-template /name',
      'invalid-template /formatVersion',
      'invalid-template /passType',
      'invalid-template /description',
      'invalid-template /placeholder',
    ]);
    expect(checkTemplateShape([])).toEqual([{ severity: 'error', code: 'invalid-template', path: '', message: 'A template must be an object' }]);
  });
});

describe('checkEventShape (event.schema.json)', () => {
  const data = { serialNumber: 'E5982H-I2', passTypeIdentifier: 'pass.com.example.ticket' };
  const event = { id: '0b7c5e3a-8f0e-4b8e-9a55-6d7c9c3a2f10', type: 'pass.created', created: '2026-05-07T10:30:00Z', data };

  test('a well-formed event has no issue', () => {
    expect(checkEventShape(event)).toEqual([]);
  });

  test('codes per member', () => {
    expect(found(checkEventShape({ ...event, id: 'evt_1', created: '2026-05-07T10:30:00.123Z', data: 'x', type: 3 }))).toEqual([
      'invalid-value /id',
      'invalid-type /type',
      'invalid-date /created',
      'invalid-type /data',
    ]);
    expect(found(checkEventShape({}))).toEqual(['missing-key /id', 'missing-key /type', 'missing-key /created', 'missing-key /data']);
  });

  test('a known type needs its data members as non-empty strings; issues come in member order', () => {
    expect(checkEventShape({ ...event, id: 'x', data: { serialNumber: '' } })).toEqual([
      { severity: 'error', code: 'invalid-value', path: '/id', message: '`id` must be a UUID-shaped string' },
      {
        severity: 'error',
        code: 'missing-key',
        path: '/data/passTypeIdentifier',
        message: 'A pass.created event needs `data.passTypeIdentifier` as a non-empty string',
      },
      { severity: 'error', code: 'invalid-value', path: '/data/serialNumber', message: 'A pass.created event needs `data.serialNumber` as a non-empty string' },
    ]);
    expect(found(checkEventShape({ ...event, type: 'webhook.verify', data: { token: 7 } }))).toEqual(['invalid-type /data/token']);
    expect(found(checkEventShape({ ...event, type: '', data: [] }))).toEqual(['invalid-value /type', 'invalid-type /data']);
    expect(checkEventShape({ ...event, type: 'pass.voided', data: {} })).toEqual([]);
  });
});

describe('checkPassShape: iOS 27', () => {
  const poster = {
    ...draft(genericPass),
    posterGeneric: { primaryFields: [{ key: 'member', value: 'Noa' }], footerFields: [{ key: 'renews', value: 'March' }] },
  };

  test('posterGeneric beside a style or alone, featuredActions and the linear formats are in the schema', () => {
    expect(found(checkPassShape(poster))).toEqual([]);
    const alone = draft(poster);
    delete alone.generic;
    expect(found(checkPassShape(alone))).toEqual([]);
    const actions = {
      ...draft(poster),
      featuredActions: [{ identifier: 'a', type: 'shop', url: 'https://example.com' }],
      barcodes: [{ format: 'PKBarcodeFormatI2of5', message: '1234', messageEncoding: 'iso-8859-1' }],
    };
    expect(found(checkPassShape(actions))).toEqual([]);
  });

  test('two of the five styles are still multiple-styles with posterGeneric; none at all is missing-style', () => {
    expect(found(checkPassShape({ ...draft(poster), coupon: {} }))).toEqual(['multiple-styles /coupon']);
    const none = draft(poster);
    delete none.generic;
    delete none.posterGeneric;
    expect(found(checkPassShape(none))).toEqual(['missing-style ']);
  });

  test('a featured action member of the wrong type is invalid-type', () => {
    expect(found(checkPassShape({ ...draft(poster), featuredActions: [{ identifier: 1 }] }))).toEqual(['invalid-type /featuredActions/0/identifier']);
  });
});
