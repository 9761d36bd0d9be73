import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GoogleWalletError, toGoogleWallet } from '../../src/google/index.js';
import { escapeIdPart } from '../../src/google/ids.js';
import { pointerOf, pointerToken } from '../../src/issues.js';
import type { Field, Pass } from '../../src/index.js';
import { hostileKey, literalText, pathSegmentText, RUNS } from '../arbitraries.js';

const AREAS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'footerFields', 'backFields', 'additionalInfoFields'] as const;
const STYLES = ['generic', 'eventTicket', 'coupon', 'storeCard', 'boardingPass'] as const;
type Body = Partial<Record<(typeof AREAS)[number], Field[]>> & { transitType?: string };

const field: fc.Arbitrary<Omit<Field, 'key'>> = fc.record(
  {
    label: literalText,
    value: fc.oneof(literalText, fc.integer()),
    changeMessage: fc.constant('Now %@'),
    dateStyle: fc.constant('PKDateStyleShort' as const),
    semantics: fc.constant({ eventName: 'x' }),
  },
  { requiredKeys: ['value'] },
);

/** A style body with up to 16 fields spread over the seven areas, keys unique within it. */
const body: fc.Arbitrary<Body> = fc
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
const tagValue = fc.oneof(literalText.filter((text) => text !== ''), fc.integer(), fc.constant('2026-07-04T20:00:00+02:00'), fc.constant({ latitude: 1 }), fc.constant([{ seatNumber: '1', seatRow: 'F', seatType: 'x' }, { seatNumber: '2' }]), fc.constant(null));
const semantics = fc.dictionary(
  fc.constantFrom('eventName', 'venueName', 'eventStartDate', 'eventEndDate', 'venueDoorsOpenDate', 'attendeeName', 'confirmationNumber', 'seats', 'venueEntranceGate', 'airlineCode', 'flightNumber', 'departureAirportCode', 'passengerName', 'originalDepartureDate', 'boardingGroup', 'venueLocation', 'performerNames', '__proto__'),
  tagValue,
  { maxKeys: 8 },
);

/** A rendered pass: one of the five styles, posterGeneric beside it, or posterGeneric alone; maybe iOS 18 / 27 keys and semantic tags. */
const pass: fc.Arbitrary<Pass> = fc
  .record({
    style: fc.constantFrom(...STYLES, undefined),
    poster: fc.option(body, { nil: undefined }),
    classic: body,
    transitType: fc.constantFrom('PKTransitTypeAir', 'PKTransitTypeTrain', 'PKTransitTypeBus'),
    serialNumber: pathSegmentText,
    extras: fc.record(
      {
        featuredActions: fc.constant([{ identifier: 'a', type: 'shop', url: 'https://example.com' }]),
        preferredStyleSchemes: fc.constant(['posterEventTicket', 'eventTicket']),
        semantics,
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ style, poster, classic, transitType, serialNumber, extras }) => {
    const styles: Record<string, unknown> = {};
    if (style !== undefined) styles[style] = style === 'boardingPass' ? { ...classic, transitType } : classic;
    if (poster !== undefined || style === undefined) styles['posterGeneric'] = poster ?? classic;
    return { formatVersion: 1, passTypeIdentifier: 'pass.com.example.property', serialNumber, teamIdentifier: 'A93A5CM278', organizationName: 'Org', description: 'd', ...extras, ...styles } as unknown as Pass;
  });

const SHOWN = new Set(['formatVersion', 'passTypeIdentifier', 'serialNumber', 'teamIdentifier', 'organizationName', 'description']);

describe('toGoogleWallet (property)', () => {
  test('every field of a rendered pass (posterGeneric and iOS 18 areas too) appears in the Google object or is named in losses', () => {
    fc.assert(
      fc.property(pass, (input) => {
        const before = structuredClone(input);
        const result = toGoogleWallet(input, { issuerId: '3388000000012345678' });
        expect(input).toEqual(before);
        const style = STYLES.find((name) => input[name] !== undefined) ?? 'posterGeneric';
        const modules = new Map(((result.object['textModulesData'] ?? []) as { id: string; body: string; header?: string }[]).map((module) => [module.id, module]));
        const lost = new Set(result.losses.map((loss) => loss.path));
        const lostUnder = (prefix: string) => result.losses.some((loss) => loss.path === prefix || loss.path.startsWith(`${prefix}/`));
        const mappedKeys = new Set(AREAS.flatMap((area) => (input[style] as Body)[area] ?? []).map((entry) => entry.key));
        for (const name of style === 'posterGeneric' ? ['posterGeneric'] : [style, 'posterGeneric']) {
          const fieldsBody = input[name as 'generic'] as Body | undefined;
          for (const area of AREAS) {
            (fieldsBody?.[area] ?? []).forEach((entry, index) => {
              const pointer = pointerOf('', [name, area, index]);
              if (name === 'posterGeneric' && style !== 'posterGeneric') {
                // Beside a classic style: on the classic face (same key), or named.
                expect(mappedKeys.has(entry.key) || lost.has(pointer)).toBe(true);
                return;
              }
              const module = modules.get(escapeIdPart(entry.key));
              const asHeader = (style === 'generic' || style === 'posterGeneric') && area === 'primaryFields' && index === 0 && (result.object['header'] as { defaultValue: { value: string } }).defaultValue.value === String(entry.value);
              if (module !== undefined) {
                expect(module.body).toBe(String(entry.value));
                if (entry.label) expect(module.header).toBe(entry.label);
              } else if (!asHeader) expect(lost.has(pointer)).toBe(true);
              // What a field carries beyond label and value is reported, at its own pointer.
              for (const key of ['changeMessage', 'dateStyle', 'semantics'] as const) {
                if (entry[key] !== undefined && (module !== undefined || asHeader)) expect(lost.has(`${pointer}/${key}`)).toBe(true);
              }
            });
          }
        }
        // Every other top-level key is shown or named; every semantic tag is used (its value found in the class or object) or named.
        const shown = JSON.stringify([result.class, result.object]);
        for (const key of Object.keys(input)) {
          if (SHOWN.has(key) || key === style) continue;
          if (key === 'semantics') {
            for (const [tag, value] of Object.entries(input.semantics ?? {})) {
              if (lostUnder(`/semantics/${pointerToken(tag)}`)) continue;
              const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
              // `shown` is JSON text: a value stands in it as its JSON string literal (a `"` as `\"`).
              const inShown = (part: string): boolean => shown.includes(JSON.stringify(part).slice(1, -1));
              const found = typeof value === 'object' && value !== null ? Object.values(Array.isArray(value) ? value[0] : value).every((member) => inShown(String(member))) : inShown(text) || inShown(text.slice(0, 19)); // a flight's departure loses its offset
              expect(found, `semantics ${tag}`).toBe(true);
            }
            continue;
          }
          expect(lostUnder(`/${key}`), key).toBe(true);
        }
        expect(modules.size).toBeLessThanOrEqual(10);
        expect(result.object['id']).toMatch(/^3388000000012345678\.[A-Za-z0-9._-]+$/);
      }),
      { numRuns: RUNS },
    );
  });

  test('any JSON shape in a pass\'s places: a result or a typed invalid-pass error, never another throw; losses are located', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    const hostile = fc.record(
      {
        generic: value, eventTicket: value, posterGeneric: value, boardingPass: value, semantics: value, barcodes: value, barcode: value,
        logoText: value, description: value, backgroundColor: value, expirationDate: value, groupingIdentifier: value, featuredActions: value,
        ['__proto__']: value, constructor: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(hostile, (parts) => {
        const input = JSON.parse(JSON.stringify({ formatVersion: 1, passTypeIdentifier: 'pass.x', serialNumber: 's', teamIdentifier: 'T', organizationName: 'O', ...parts })) as Pass;
        try {
          const result = toGoogleWallet(input, { issuerId: '1' });
          JSON.stringify(result);
          for (const loss of result.losses) expect(loss.path === '' || loss.path.startsWith('/')).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(GoogleWalletError);
          expect((error as GoogleWalletError).code).toBe('invalid-pass');
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('distinct passes get distinct object ids', () => {
    fc.assert(
      fc.property(fc.tuple(pathSegmentText, pathSegmentText), fc.tuple(pathSegmentText, pathSegmentText), ([typeA, serialA], [typeB, serialB]) => {
        fc.pre(typeA !== typeB || serialA !== serialB);
        const id = (passTypeIdentifier: string, serialNumber: string) =>
          toGoogleWallet({ formatVersion: 1, passTypeIdentifier, serialNumber, teamIdentifier: 'T', organizationName: 'O', description: '', generic: {} }, { issuerId: '1' }).object['id'];
        expect(id(typeA, serialA)).not.toBe(id(typeB, serialB));
      }),
      { numRuns: RUNS },
    );
  });
});
