// Generated rendered passes for the Google mapping's property tests: every
// style (posterGeneric too), fields of every value kind Wallet formats
// (currencies, percents, dates), semantic tags of the right and the wrong
// type, and the top-level keys Google has a place for or not.
import fc from 'fast-check';
import type { Field, Pass } from '../../src/index.js';
import type { GoogleMapOptions } from '../../src/google/index.js';
import { hostileKey, literalText, pathSegmentText } from '../arbitraries.js';

export const AREAS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'footerFields', 'backFields', 'additionalInfoFields'] as const;
export const STYLES = ['generic', 'eventTicket', 'coupon', 'storeCard', 'boardingPass'] as const;
export type Body = Partial<Record<(typeof AREAS)[number], Field[]>> & { transitType?: string };

const DATE_STYLE = fc.constantFrom('PKDateStyleNone', 'PKDateStyleShort', 'PKDateStyleMedium', 'PKDateStyleLong', 'PKDateStyleFull' as const);
export const w3cDate: fc.Arbitrary<string> = fc
  .tuple(
    fc.integer({ min: 2000, max: 2099 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom('Z', '+02:00', '-05:30', '+00:00'),
  )
  .map(
    ([y, mo, d, h, mi, offset]) =>
      `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:00${offset}`,
  );

/** A field (without its key): text or a number, a currency amount, a styled number, or a styled date. */
const field: fc.Arbitrary<Omit<Field, 'key'>> = fc.oneof(
  fc.record(
    {
      label: literalText,
      value: fc.oneof(literalText, fc.integer()),
      changeMessage: fc.constant('Now %@'),
      semantics: fc.constant({ eventName: 'x' }),
      textAlignment: fc.constant('PKTextAlignmentRight' as const),
    },
    { requiredKeys: ['value'] },
  ),
  fc.record(
    { label: literalText, value: fc.double({ min: -1e6, max: 1e6, noNaN: true }), currencyCode: fc.constantFrom('EUR', 'USD', 'JPY') },
    { requiredKeys: ['value', 'currencyCode'] },
  ),
  fc.record({
    value: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    numberStyle: fc.constantFrom('PKNumberStyleDecimal', 'PKNumberStylePercent', 'PKNumberStyleScientific', 'PKNumberStyleSpellOut' as const),
  }),
  fc.record(
    { label: literalText, value: w3cDate, dateStyle: DATE_STYLE, timeStyle: DATE_STYLE, ignoresTimeZone: fc.boolean(), isRelative: fc.boolean() },
    { requiredKeys: ['value', 'dateStyle'] },
  ),
);

/** A style body with up to 16 fields spread over the seven areas, keys unique within it. */
export const body: fc.Arbitrary<Body> = fc
  .record({
    keys: fc.uniqueArray(hostileKey, { maxLength: 16, size: 'max' }),
    fields: fc.array(fc.tuple(fc.constantFrom(...AREAS), field), { minLength: 16, maxLength: 16 }),
  })
  .map(({ keys, fields }) => {
    const result: Body = {};
    keys.forEach((key, index) => {
      const [area, rest] = fields[index]!;
      (result[area] ??= []).push({ ...rest, key });
    });
    return result;
  });

// Semantic tags: the event and flight tags the mapping uses (with values of the right and of the wrong type) and others it does not.
const tagValue = fc.oneof(
  literalText.filter((text) => text !== ''),
  fc.integer(),
  fc.constant('2026-07-04T20:00:00+02:00'),
  fc.constant({ latitude: 1 }),
  fc.constant({ givenName: 'Ada', familyName: 'Lovelace' }),
  fc.constant([{ seatNumber: '1', seatRow: 'F', seatType: 'x' }, { seatNumber: '2' }]),
  fc.constant(null),
);
const semantics = fc.dictionary(
  fc.constantFrom(
    'eventName',
    'venueName',
    'venueRegionName',
    'eventStartDate',
    'eventEndDate',
    'venueDoorsOpenDate',
    'attendeeName',
    'confirmationNumber',
    'seats',
    'venueEntranceGate',
    'airlineCode',
    'flightNumber',
    'departureAirportCode',
    'destinationAirportCode',
    'passengerName',
    'originalDepartureDate',
    'boardingGroup',
    'venueLocation',
    'performerNames',
    '__proto__',
  ),
  tagValue,
  { maxKeys: 10 },
);
/** The tags a Google flight requires, all present and well-formed. */
const flightTags = fc.constant({
  airlineCode: 'EA',
  flightNumber: 815,
  departureAirportCode: 'LIS',
  destinationAirportCode: 'CPH',
  originalDepartureDate: '2026-05-07T10:30:00+01:00',
  passengerName: { givenName: 'Ada', familyName: 'Lovelace' },
  confirmationNumber: 'K7Q2ZD',
});

const barcode = fc.record(
  {
    message: fc.oneof(literalText, fc.constant('12345678901231')),
    format: fc.constantFrom(
      'PKBarcodeFormatQR',
      'PKBarcodeFormatPDF417',
      'PKBarcodeFormatAztec',
      'PKBarcodeFormatCode128',
      'PKBarcodeFormatI2of5',
      'PKBarcodeFormatEAN13',
      'PKBarcodeFormatUnknown',
    ),
    messageEncoding: fc.constant('iso-8859-1'),
    altText: literalText,
  },
  { requiredKeys: ['message', 'format', 'messageEncoding'] },
);

const location = fc.record(
  {
    latitude: fc.double({ min: -90, max: 90, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
    altitude: fc.integer(),
    relevantText: literalText,
  },
  { requiredKeys: ['latitude', 'longitude'] },
);

/** A rendered pass: one of the five styles, posterGeneric beside it, or posterGeneric alone; top-level keys Google has a place for and others. */
export const googlePass: fc.Arbitrary<Pass> = fc
  .record({
    style: fc.constantFrom(...STYLES, undefined),
    poster: fc.option(body, { nil: undefined }),
    classic: body,
    transitType: fc.constantFrom('PKTransitTypeAir', 'PKTransitTypeTrain', 'PKTransitTypeBus'),
    serialNumber: pathSegmentText,
    organizationName: literalText.filter((text) => text.trim() !== ''),
    extras: fc.record(
      {
        description: literalText,
        logoText: literalText,
        featuredActions: fc.constant([{ identifier: 'a', type: 'shop', url: 'https://example.com' }]),
        preferredStyleSchemes: fc.constant(['posterEventTicket', 'eventTicket']),
        semantics: fc.oneof(semantics, flightTags),
        barcodes: fc.array(barcode, { maxLength: 3 }),
        barcode,
        backgroundColor: fc.constantFrom('rgb(60, 65, 76)', '#1e293b', 'blue'),
        foregroundColor: fc.constant('rgb(255, 255, 255)'),
        nfc: fc.record(
          {
            message: literalText.filter((text) => text !== ''),
            encryptionPublicKey: fc.constant('MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC'),
            requiresAuthentication: fc.boolean(),
          },
          { requiredKeys: ['message'] },
        ),
        locations: fc.array(location, { maxLength: 12 }),
        maxDistance: fc.integer({ min: 1, max: 1000 }),
        relevantDate: w3cDate,
        expirationDate: w3cDate,
        groupingIdentifier: literalText,
        voided: fc.boolean(),
        sharingProhibited: fc.boolean(),
        userInfo: fc.constant({ internal: 'never shown' }),
        webServiceURL: fc.constant('https://example.com/passes'),
        authenticationToken: fc.constant('0123456789abcdef0123'),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ style, poster, classic, transitType, serialNumber, organizationName, extras }) => {
    const styles: Record<string, unknown> = {};
    if (style !== undefined) styles[style] = style === 'boardingPass' ? { ...classic, transitType } : classic;
    if (poster !== undefined || style === undefined) styles['posterGeneric'] = poster ?? classic;
    return {
      formatVersion: 1,
      passTypeIdentifier: 'pass.com.example.property',
      serialNumber,
      teamIdentifier: 'A93A5CM278',
      organizationName,
      description: 'd',
      ...extras,
      ...styles,
    } as unknown as Pass;
  });

/** Options of a mapping: with or without hosted images, Smart Tap issuers, another formatting language. */
export const mapOptions: fc.Arbitrary<GoogleMapOptions> = fc.record(
  {
    issuerId: fc.constant('3388000000012345678'),
    imageUrl: fc.constantFrom(
      (path: string) => (path === 'logo.png' || path === 'strip.png' ? `https://img.example/${path}` : undefined),
      (path: string) => (path === 'thumbnail.png' ? `https://img.example/${path}` : undefined),
    ),
    redemptionIssuers: fc.constant(['3388000000012345678']),
    strings: fc.constant({ de: { Org: 'Org (DE)' } }),
  },
  { requiredKeys: ['issuerId'] },
);
