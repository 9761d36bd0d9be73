// The README's "Validating a pass" section, as a test: the same code, the same results.
import { describe, expect, test } from 'vitest';
import { formatRgb, parseColor, toRgbColor, validatePass } from '../../src/index.js';

const pass = {
  barcode: { message: 'ABC123456', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
  logoText: 'Concert',
  foregroundColor: '#ffffff',
  backgroundColor: 'rgb(60, 65, 76)',
  generic: {
    primaryFields: [{ key: 'event', value: 'Concert' }],
    secondaryFields: [{ key: 'venue', label: 'Venue', value: 'Hall A', textAlignment: 'PKTextAlignmentRight' }],
  },
  serialNumber: '2f7bd3bd-0a4c-4b1e-9f0c-6d0b8a6f3e51',
  passTypeIdentifier: 'pass.com.example.event',
  formatVersion: 1,
  description: 'Event ticket',
  organizationName: 'Example Events',
  teamIdentifier: 'A93A5CM278',
  authenticationToken: 'c2a0e6a4-4f0e-4d3b-8b3e-3a7c1c9e2d10',
  webServiceURL: 'https://passes.example.com/',
};

describe('README: validating a pass', () => {
  test('a valid pass; the hex color is only a warning', () => {
    const report = validatePass(pass);
    expect(report.ok).toBe(true);
    expect(report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual(['warning hex-color /foregroundColor']);
  });

  test('problems are located, in document order', () => {
    const broken = {
      ...pass,
      backgroundColor: 'slate',
      generic: { ...pass.generic, auxiliaryFields: [{ key: 'venue', value: 'Row 12' }] },
      webServiceURL: 'http://localhost:8080/',
    };
    const report = validatePass(broken);
    expect(report.ok).toBe(false);
    expect(report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual([
      'warning hex-color /foregroundColor',
      'error invalid-color /backgroundColor',
      'error duplicate-field-key /generic/auxiliaryFields/0/key',
      'error insecure-web-service-url /webServiceURL',
    ]);
    expect(report.issues[2]?.message).toBe(
      'Field key "venue" is already used at /generic/secondaryFields/0/key; Wallet refuses a pass with two fields of one key',
    );
  });

  test('allowHttp: plain http becomes a warning (development devices)', () => {
    const local = { ...pass, webServiceURL: 'http://localhost:8080/' };
    expect(validatePass(local).ok).toBe(false);
    expect(validatePass(local, { allowHttp: true }).ok).toBe(true);
  });

  test('colors', () => {
    expect(parseColor('#3c414c')).toEqual({ r: 60, g: 65, b: 76 });
    expect(formatRgb({ r: 60, g: 65, b: 76 })).toBe('rgb(60, 65, 76)');
    expect(toRgbColor('#fff')).toBe('rgb(255, 255, 255)');
    expect(toRgbColor('slate')).toBe('slate');
  });
});
