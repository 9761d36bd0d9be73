import { expect, test } from 'vitest';
import type { Pass } from '../../src/types.js';
import { validatePass } from '../../src/pass/validate.js';

// The Pass type names the keys the rules know since iOS 18 and 26: a pass that
// uses them type-checks (this file is compiled by `npm run typecheck`) and
// validates without an unknown-key warning.
test('a Pass with iOS 18 and 26 keys type-checks and validates without unknown keys', () => {
  const pass: Pass = {
    formatVersion: 1,
    passTypeIdentifier: 'pass.com.example.event',
    serialNumber: 'E-1',
    teamIdentifier: 'A93A5CM278',
    organizationName: 'Example Events',
    description: 'Festival pass',
    eventTicket: { primaryFields: [{ key: 'event', value: 'Festival' }] },
    footerBackgroundColor: 'rgb(10, 20, 30)',
    relevantDates: [{ startDate: '2026-05-07T19:00-05:00', endDate: '2026-05-07T23:00-05:00' }],
    preferredStyleSchemes: ['posterEventTicket', 'eventTicket'],
    eventLogoText: 'Festival',
    useAutomaticColors: true,
    auxiliaryStoreIdentifiers: [123456789],
    upcomingPassInformation: [{ identifier: 'day-2', name: 'Day 2', type: 'event', isActive: false }],
    bagPolicyURL: 'https://example.com/bags',
    merchandiseURL: 'https://example.com/shop',
  };
  const report = validatePass(pass);
  expect(report.issues.filter((issue) => issue.code === 'unknown-key')).toEqual([]);
  expect(report.ok).toBe(true);
});

// iOS 27: posterGeneric beside a style, footerFields, featuredActions, the linear barcode formats.
test('a Pass with iOS 27 keys type-checks and validates without any issue', () => {
  const member = { key: 'member', label: 'Member', value: 'Noa Lindqvist' };
  const pass: Pass = {
    formatVersion: 1,
    passTypeIdentifier: 'pass.org.example.membership',
    serialNumber: 'M-1',
    teamIdentifier: 'A93A5CM278',
    organizationName: 'Example Museum',
    description: 'Museum membership',
    posterGeneric: {
      headerFields: [{ key: 'number', label: 'No.', value: '000482' }],
      primaryFields: [member],
      footerFields: [{ key: 'renews', value: 'Renews in March' }],
    },
    generic: { primaryFields: [member], additionalInfoFields: [{ key: 'renews', label: 'Renews', value: 'March' }] },
    featuredActions: [{ identifier: 'benefits', type: 'membershipBenefits', url: 'https://example.org/benefits' }],
    barcodes: [
      { format: 'PKBarcodeFormatCodabar', message: 'A000482B', messageEncoding: 'iso-8859-1' },
      { format: 'PKBarcodeFormatQR', message: 'M-1', messageEncoding: 'iso-8859-1' },
    ],
  };
  expect(validatePass(pass).issues).toEqual([]);
});
