import { describe, expect, test } from 'vitest';
import { checkPassBody } from '../../src/rules/pass-body.js';

// What a template's checks see: strings holding `${` are placeholders.
const hasPlaceholder = (text: string): boolean => text.includes('${');
const found = (body: unknown, path = '/description') =>
  checkPassBody(body, path, hasPlaceholder).map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);

describe('checkPassBody', () => {
  test('paths are prefixed with the body’s path', () => {
    expect(found({ generic: {}, backgroundColor: 'red' })).toEqual(['error invalid-color /description/backgroundColor']);
    expect(found({ generic: {}, backgroundColor: 'red' }, '')).toEqual(['error invalid-color /backgroundColor']);
  });

  test('pass-level keys are neither required nor unknown in a body', () => {
    expect(found({ generic: {}, serialNumber: 'x', webServiceURL: 'http://x' })).toEqual([]);
  });

  test('a whole-value placeholder may become any type: no type check', () => {
    const body = {
      generic: {
        primaryFields: '${fields}',
        secondaryFields: [{ key: 'price', value: '${price}', currencyCode: '${currency}' }, '${field}'],
        auxiliaryFields: [{ key: 'when', value: '${when}', dateStyle: 'PKDateStyleShort', timeStyle: 'PKDateStyleShort' }],
      },
      locations: '${locations}',
      beacons: [{ proximityUUID: '${uuid}', major: '${major}' }],
      voided: '${voided}',
      barcode: { message: '${code}', format: '${format}', messageEncoding: 'iso-8859-1' },
      backgroundColor: '${color}',
      relevantDate: '${date}',
      nfc: { message: '${nfc}' },
      maxDistance: '${distance}',
    };
    expect(found(body)).toEqual([]);
  });

  test('a whole style body or whole body may be a placeholder', () => {
    expect(found({ generic: '${body}' })).toEqual([]);
    expect(found('${body}')).toEqual([]);
  });

  test('everything static around a placeholder is still checked', () => {
    const body = {
      foregroundColor: 'white',
      generic: {
        primaryFields: [{ key: 'name', value: '${name}', textAlignment: '${align}' }],
        secondaryFields: [{ key: 'name', label: '${label}', value: 'x' }],
        transitType: '${transit}',
      },
    };
    expect(found(body)).toEqual([
      'error invalid-color /description/foregroundColor',
      'warning text-alignment-not-allowed /description/generic/primaryFields/0/textAlignment',
      'error duplicate-field-key /description/generic/secondaryFields/0/key',
      'warning unexpected-transit-type /description/generic/transitType',
    ]);
  });

  test('two identical keys holding placeholders render identically: still duplicates', () => {
    const body = { generic: { primaryFields: [{ key: 'seat-${n}', value: 'a' }], backFields: [{ key: 'seat-${n}', value: 'b' }] } };
    expect(found(body)).toEqual(['error duplicate-field-key /description/generic/backFields/0/key']);
  });

  test('a static value that breaks a static style is reported', () => {
    const body = { coupon: { primaryFields: [{ key: 'off', value: 'twenty', numberStyle: 'PKNumberStylePercent' }] } };
    expect(found(body)).toEqual(['error number-style-needs-number /description/coupon/primaryFields/0/value']);
  });

  test('hex colors are accepted silently unless asked (buildPass converts a template’s)', () => {
    expect(found({ generic: {}, foregroundColor: '#fff' })).toEqual([]);
    const warned = checkPassBody({ generic: {}, foregroundColor: '#fff' }, '', hasPlaceholder, { warnHexColors: true });
    expect(warned.map((issue) => `${issue.code} ${issue.path}`)).toEqual(['hex-color /foregroundColor']);
  });

  test('a missing style and a missing store identifier are body rules', () => {
    expect(found({ appLaunchURL: 'app://x' })).toEqual([
      'error missing-style /description',
      'warning missing-store-identifiers /description/associatedStoreIdentifiers',
    ]);
    expect(found({ generic: {}, appLaunchURL: 'app://x', associatedStoreIdentifiers: '${ids}' })).toEqual([]);
  });

  test('a body that is not an object is invalid-type at its path', () => {
    expect(found(7)).toEqual(['error invalid-type /description']);
  });
});
