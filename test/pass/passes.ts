// Realistic, valid passes of each of the five styles: validatePass must accept
// them without a single issue. Tests copy them with `draft` and break one thing.

import { eventBody } from '../fixtures.js';

const identity = {
  serialNumber: '2f7bd3bd-0a4c-4b1e-9f0c-6d0b8a6f3e51',
  passTypeIdentifier: 'pass.com.example.event',
  formatVersion: 1,
  description: 'Event ticket',
  organizationName: 'Example Events',
  teamIdentifier: 'A93A5CM278',
  authenticationToken: 'c2a0e6a4-4f0e-4d3b-8b3e-3a7c1c9e2d10',
  webServiceURL: 'https://passes.example.com/',
} as const;

/** The spec's example pass as it shows it: hex foreground (a warning), rgb() background, a label-less primary field. */
export const specPass = { ...eventBody, ...identity } as const;

export const genericPass = {
  ...specPass,
  foregroundColor: 'rgb(255, 255, 255)',
  labelColor: 'rgb(200, 200, 200)',
  barcodes: [{ message: 'ABC123456', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1', altText: 'ABC 123 456' }],
  expirationDate: '2026-12-02T06:00+01:00',
  voided: false,
} as const;

export const boardingPass = {
  formatVersion: 1,
  passTypeIdentifier: 'pass.com.example.airline.boarding-pass',
  serialNumber: 'EX123-20260507-12B',
  teamIdentifier: 'A93A5CM278',
  organizationName: 'Example Air',
  description: 'Boarding pass EX123 Zürich → Lisbon',
  webServiceURL: 'https://passes.example-air.com/v1',
  authenticationToken: 'vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc',
  relevantDate: '2026-05-07T10:30+02:00',
  expirationDate: '2026-05-08T10:30:00Z',
  groupingIdentifier: 'EX123-2026-05-07',
  locations: [{ latitude: 47.4582, longitude: 8.5555, relevantText: 'Gate B34 is open' }],
  foregroundColor: 'rgb(22, 55, 110)',
  backgroundColor: 'rgb(207, 228, 251)',
  labelColor: 'rgb(90, 90, 90)',
  logoText: 'Example Air',
  barcodes: [
    { format: 'PKBarcodeFormatAztec', message: 'M1LOVELACE/ADA EABC123 ZRHLISEX 0123 127Y012B0001 100', messageEncoding: 'iso-8859-1' },
    { format: 'PKBarcodeFormatCode128', message: 'EABC123', messageEncoding: 'iso-8859-1' },
  ],
  boardingPass: {
    transitType: 'PKTransitTypeAir',
    headerFields: [{ key: 'gate', label: 'Gate', value: 'B34', changeMessage: 'Gate changed to %@' }],
    primaryFields: [
      { key: 'origin', label: 'Zürich', value: 'ZRH' },
      { key: 'destination', label: 'Lisbon', value: 'LIS' },
    ],
    secondaryFields: [
      { key: 'passenger', label: 'Passenger', value: 'Ada Lovelace' },
      { key: 'seat', label: 'Seat', value: '12B', textAlignment: 'PKTextAlignmentRight' },
    ],
    auxiliaryFields: [
      {
        key: 'boards',
        label: 'Boarding',
        value: '2026-05-07T09:50+02:00',
        dateStyle: 'PKDateStyleNone',
        timeStyle: 'PKDateStyleShort',
        isRelative: false,
      },
      { key: 'group', label: 'Group', value: 2, row: 1 },
    ],
    backFields: [
      { key: 'help', label: 'Help', value: 'Call +41 44 000 00 00', dataDetectorTypes: ['PKDataDetectorTypePhoneNumber'] },
      {
        key: 'terms',
        label: 'Terms',
        value: 'Conditions of carriage apply.',
        attributedValue: '<a href="https://example-air.com/terms">Conditions of carriage</a> apply.',
      },
    ],
  },
} as const;

export const eventTicketPass = {
  ...identity,
  description: 'Ticket for Example Fest',
  groupingIdentifier: 'example-fest-2026',
  relevantDate: '2026-07-04T18:00-04:00',
  beacons: [{ proximityUUID: 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0', major: 1, minor: 65535, relevantText: 'Welcome to Example Fest' }],
  locations: [{ latitude: 40.7505, longitude: -73.9934, altitude: 10 }],
  maxDistance: 200,
  backgroundColor: 'rgb(30, 30, 30)',
  foregroundColor: 'rgb(250, 250, 250)',
  barcodes: [{ format: 'PKBarcodeFormatQR', message: 'TICKET-000123', messageEncoding: 'utf-8' }],
  sharingProhibited: true,
  semantics: { eventName: 'Example Fest' },
  eventTicket: {
    headerFields: [
      { key: 'doors', label: 'Doors', value: '2026-07-04T17:00-04:00', dateStyle: 'PKDateStyleShort', timeStyle: 'PKDateStyleShort', ignoresTimeZone: true },
    ],
    primaryFields: [{ key: 'event-name', label: 'Event', value: 'Example Fest' }],
    secondaryFields: [{ key: 'section', label: 'Section', value: 'Floor' }],
    auxiliaryFields: [{ key: 'price', label: 'Price', value: 89.5, currencyCode: 'USD' }],
    backFields: [
      { key: 'venue-address', label: 'Venue', value: '4 Example Plaza, New York', dataDetectorTypes: ['PKDataDetectorTypeAddress', 'PKDataDetectorTypeLink'] },
    ],
  },
} as const;

export const couponPass = {
  ...identity,
  passTypeIdentifier: 'pass.com.example.coupon',
  description: '20 % off your next coffee',
  backgroundColor: 'rgb(110, 60, 20)',
  foregroundColor: 'rgb(255, 255, 255)',
  expirationDate: '2026-06-30T23:59:59+02:00',
  barcode: { format: 'PKBarcodeFormatQR', message: 'COFFEE20', messageEncoding: 'iso-8859-1' },
  coupon: {
    primaryFields: [{ key: 'offer', label: 'Off', value: 0.2, numberStyle: 'PKNumberStylePercent' }],
    secondaryFields: [{ key: 'minimum', label: 'From', value: 5, currencyCode: 'EUR' }],
    backFields: [{ key: 'fine-print', label: 'Terms', value: 'One coupon per visit.', changeMessage: 'Terms changed: %@' }],
  },
} as const;

export const storeCardPass = {
  ...identity,
  passTypeIdentifier: 'pass.com.example.store-card',
  description: 'Example Coffee card',
  backgroundColor: 'rgb(0, 70, 50)',
  foregroundColor: 'rgb(255, 255, 255)',
  labelColor: 'rgb(180, 220, 200)',
  appLaunchURL: 'examplecoffee://card',
  associatedStoreIdentifiers: [123456789],
  userInfo: { customer: 42 },
  nfc: {
    message: 'loyalty-0042',
    encryptionPublicKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEYbhYgzOqng4QUYR9OHWbS2Vlnn/HDkcjhb0QAslPiP34Js+0u/YmMBaFh1GtF+Ma59CK2r/WnyOOpk5zreCYuQ==',
    requiresAuthentication: false,
  },
  suppressStripShine: true,
  barcodes: [{ format: 'PKBarcodeFormatPDF417', message: '0042', messageEncoding: 'iso-8859-1' }],
  storeCard: {
    headerFields: [{ key: 'stars', label: 'Stars', value: 12, numberStyle: 'PKNumberStyleDecimal' }],
    primaryFields: [{ key: 'balance', label: 'Balance', value: 21.75, currencyCode: 'EUR' }],
    auxiliaryFields: [{ key: 'member-since', label: 'Member since', value: '2024-01-15T00:00Z', dateStyle: 'PKDateStyleMedium', timeStyle: 'PKDateStyleNone' }],
  },
} as const;

/** One valid pass per style. */
export const validPasses = { genericPass, boardingPass, eventTicketPass, couponPass, storeCardPass } as const;
