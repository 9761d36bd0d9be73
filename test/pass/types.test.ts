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
