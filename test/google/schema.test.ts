// Every class and object passmint writes, checked against Google's own
// description of the Wallet Objects API (test/google/schema.ts says where it
// comes from): no unknown field, the right JSON types and enum values, and
// every required field present — Google refuses an insert otherwise.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toGoogleWallet, type GoogleMapOptions, type GoogleWalletPass } from '../../src/google/index.js';
import { buildPass, type Pass, type TemplateValues } from '../../src/index.js';
import { examples } from '../../playground/examples/index.js';
import { issuer } from '../fixtures.js';
import { RUNS } from '../arbitraries.js';
import { googlePass, mapOptions } from './arbitraries.js';
import { resourceNames, schemaProblems, walletObjectsSchema } from './schema.js';

const issuerId = '3388000000012345678';
const hosted = (path: string) => (path === 'logo.png' || path === 'strip.png' ? `https://img.example/${path}` : undefined);
const OPTIONS: readonly GoogleMapOptions[] = [
  { issuerId },
  { issuerId, imageUrl: hosted },
  { issuerId, imageUrl: hosted, redemptionIssuers: [issuerId], locale: 'de-DE', strings: { fr: {} } },
];

/** Everything Google's description says is wrong with a mapping's class and object. */
function problems(mapped: GoogleWalletPass): string[] {
  const names = resourceNames(mapped.type);
  return [...schemaProblems(mapped.class, names.class), ...schemaProblems(mapped.object, names.object)];
}

const examplePasses: [string, Pass][] = examples.map((example) => {
  const values = Object.fromEntries(
    Object.entries(example.values).map(([name, value]) => [name, value.json ? JSON.parse(value.text) : value.text]),
  ) as TemplateValues;
  return [example.id, buildPass(example.template, values, issuer)];
});
const verdicts = new URL('../fixtures/wallet-verdicts/', import.meta.url);
/** The wallet-verdict fixtures that are passes (some are deliberately broken JSON: those are not passes). */
const fixturePasses: [string, Pass][] = readdirSync(verdicts)
  .filter((name) => name.endsWith('.json') && name !== 'manifest.json')
  .flatMap((name): [string, Pass][] => {
    try {
      const value: unknown = JSON.parse(readFileSync(new URL(name, verdicts), 'utf8'));
      return value !== null && typeof value === 'object' && 'serialNumber' in value ? [[name, value as Pass]] : [];
    } catch {
      return [];
    }
  });

describe("Google's schema (checked in)", () => {
  test('names its source and covers the twelve resources passmint writes', () => {
    expect(walletObjectsSchema.source).toMatchObject({
      package: '@googleapis/walletobjects',
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      extracted: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    });
    expect(walletObjectsSchema.roots).toHaveLength(12);
    // The facts issue 31 found: no background color on loyalty and offer objects; a flight needs its airports, carrier, departure, passenger and reservation.
    expect(walletObjectsSchema.schemas['LoyaltyObject']!.properties['hexBackgroundColor']).toBeUndefined();
    expect(walletObjectsSchema.schemas['OfferClass']!.properties['hexBackgroundColor']).toEqual({ type: 'string' });
    expect(walletObjectsSchema.schemas['FlightClass']!.required).toEqual(
      expect.arrayContaining(['origin', 'destination', 'flightHeader', 'localScheduledDepartureDateTime']),
    );
    expect(walletObjectsSchema.schemas['FlightObject']!.required).toEqual(expect.arrayContaining(['passengerName', 'reservationInfo']));
    expect(walletObjectsSchema.schemas['EventVenue']!.required).toEqual(['address', 'name']);
  });

  test('the checker finds what Google would refuse', () => {
    expect(schemaProblems({ id: `${issuerId}.a.b`, classId: `${issuerId}.a`, state: 'ACTIVE', hexBackgroundColor: '#000000' }, 'LoyaltyObject')).toEqual([
      'LoyaltyObject.hexBackgroundColor: unknown field of LoyaltyObject',
    ]);
    expect(
      schemaProblems(
        {
          id: `${issuerId}.a`,
          issuerName: 'X',
          reviewStatus: 'UNDER_REVIEW',
          venue: { name: { defaultValue: { language: 'en', value: 'Hall' } } },
          eventName: { defaultValue: { language: 'en', value: 'E' } },
        },
        'EventTicketClass',
      ),
    ).toEqual(['EventTicketClass.venue.address: required by EventVenue, missing']);
    expect(
      schemaProblems({ id: 'x y', classId: `${issuerId}.a`, state: 'GONE', tripType: 'ONE_WAY', barcode: { type: 'QR', value: 1 } }, 'TransitObject'),
    ).toEqual([
      'TransitObject.state: "GONE" is not one of STATE_UNSPECIFIED, ACTIVE, active, COMPLETED, completed, EXPIRED, expired, INACTIVE, inactive',
      'TransitObject.barcode.type: "QR" is not one of ' + walletObjectsSchema.schemas['Barcode']!.properties['type']!.enum!.join(', '),
      'TransitObject.barcode.value: not a string (number)',
      'TransitObject.id: not an id of the form <issuer id>.<letters, digits, . _ ->',
    ]);
    expect(schemaProblems({ id: `${issuerId}.f`, issuerName: 'X', reviewStatus: 'UNDER_REVIEW' }, 'FlightClass')).toEqual([
      'FlightClass.destination: required by FlightClass, missing',
      'FlightClass.flightHeader: required by FlightClass, missing',
      'FlightClass.localScheduledDepartureDateTime: required by FlightClass, missing',
      'FlightClass.origin: required by FlightClass, missing',
    ]);
  });
});

describe('every output of toGoogleWallet is valid against it', () => {
  test.each(examplePasses)('the playground example %s, with and without images, Smart Tap and another language', (_id, pass) => {
    for (const options of OPTIONS) expect(problems(toGoogleWallet(pass, options))).toEqual([]);
  });

  test.each(fixturePasses)('the wallet-verdicts fixture %s', (_name, pass) => {
    for (const options of OPTIONS) expect(problems(toGoogleWallet(pass, options))).toEqual([]);
  });

  test('generated passes of every style, with every kind of value and top-level key', () => {
    fc.assert(
      fc.property(googlePass, mapOptions, (pass, options) => {
        const mapped = toGoogleWallet(pass, options);
        expect(problems(mapped)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
