import type { PassIssuer, PassTemplate } from '../src/index.js';

/** The spec's example shapes: hex foreground, rgb() background, PDF417 barcode, a label-less primary field. */
export const eventTicket = {
  id: 42,
  name: 'Event ticket',
  formatVersion: 1,
  passType: 'pass.com.example.event',
  description: {
    barcode: { message: '${barcode}', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
    logoText: '${eventName}',
    foregroundColor: '#ffffff',
    backgroundColor: 'rgb(60, 65, 76)',
    generic: {
      primaryFields: [{ key: 'event', value: '${eventName}' }],
      secondaryFields: [
        { key: 'venue', label: 'Venue', value: '${venue}' },
        { key: 'date', label: 'Date', value: '${date}', textAlignment: 'PKTextAlignmentRight' },
      ],
      auxiliaryFields: [
        { key: 'seat', label: 'Seat', value: 'Row ${seat}' },
        { key: 'holder', label: 'Holder', value: '${holder}' },
      ],
    },
  },
  placeholder: ['eventName', 'venue', 'date', 'seat', 'holder', 'barcode'],
} as const satisfies PassTemplate;

export const eventValues = {
  eventName: 'Concert',
  venue: 'Hall A',
  date: '2026-12-01',
  seat: '12B',
  holder: 'Ada Lovelace',
  barcode: 'ABC123456',
} as const;

/** What `eventTicket` renders to with `eventValues`, written out by hand. */
export const eventBody = {
  barcode: { message: 'ABC123456', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
  logoText: 'Concert',
  foregroundColor: '#ffffff',
  backgroundColor: 'rgb(60, 65, 76)',
  generic: {
    primaryFields: [{ key: 'event', value: 'Concert' }],
    secondaryFields: [
      { key: 'venue', label: 'Venue', value: 'Hall A' },
      { key: 'date', label: 'Date', value: '2026-12-01', textAlignment: 'PKTextAlignmentRight' },
    ],
    auxiliaryFields: [
      { key: 'seat', label: 'Seat', value: 'Row 12B' },
      { key: 'holder', label: 'Holder', value: 'Ada Lovelace' },
    ],
  },
};

export const issuer: PassIssuer = {
  teamIdentifier: 'A93A5CM278',
  organizationName: 'Example Events',
  webServiceURL: 'https://passes.example.com/',
  serialNumber: '2f7bd3bd-0a4c-4b1e-9f0c-6d0b8a6f3e51',
  authenticationToken: 'c2a0e6a4-4f0e-4d3b-8b3e-3a7c1c9e2d10',
};

/** A deep, mutable copy (tests change it freely). */
export function clone<T>(value: T): T {
  return structuredClone(value) as T;
}

/**
 * A deep copy typed loosely, for tests that break a template on purpose.
 */
// biome-ignore lint: tests edit arbitrary members
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function draft(value: unknown): any {
  return structuredClone(value);
}
