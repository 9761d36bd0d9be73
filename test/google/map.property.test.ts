import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GoogleWalletError, toGoogleWallet } from '../../src/google/index.js';
import { escapeIdPart } from '../../src/google/ids.js';
import { pointerToken } from '../../src/issues.js';
import type { Field, Pass } from '../../src/index.js';
import { pathSegmentText, RUNS } from '../arbitraries.js';
import { googlePass, mapOptions, STYLES } from './arbitraries.js';

/** Every leaf (string, number, boolean) of a JSON value, with its JSON Pointer. */
function leaves(value: unknown, pointer = ''): [string, unknown][] {
  if (value === null || typeof value !== 'object') return [[pointer, value]];
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  return entries.flatMap(([key, item]) => leaves(item, `${pointer}/${pointerToken(key)}`));
}

// What a holder never sees, or what chooses how Google shows something checked elsewhere in this test.
const NOT_SHOWN = [
  /^\/(formatVersion|teamIdentifier|passTypeIdentifier|serialNumber|webServiceURL|authenticationToken)$/, // ids (checked below) and the web service
  /^\/userInfo(\/|$)/,
  /Fields\/\d+\/key$/, // a field's key is its text module's id
  /\/(textAlignment|messageEncoding|ignoresTimeZone)$/, // layout and encoding Google decides; ignoresTimeZone applied to the value
  /Fields\/\d+\/(dateStyle|timeStyle|numberStyle|currencyCode)$/, // applied: the value is checked formatted
  /^\/(barcode|barcodes\/\d+)\/format$/, // the barcode's Google type (map.test.ts)
  /^\/voided$/, // the state, checked below
  /^\/boardingPass\/transitType$/, // the type, checked below
];

const DATE_STYLES: Record<string, 'short' | 'medium' | 'long' | 'full' | undefined> = {
  PKDateStyleShort: 'short',
  PKDateStyleMedium: 'medium',
  PKDateStyleLong: 'long',
  PKDateStyleFull: 'full',
};

/** A field's value as Wallet shows it in `locale` — written independently of the library, for the shapes the generator makes. */
function shownValue(field: Field, locale: string, applied: (key: string) => boolean): string {
  const value = field.value;
  if (typeof value === 'number' && field.currencyCode !== undefined && applied('currencyCode'))
    return new Intl.NumberFormat(locale, { style: 'currency', currency: field.currencyCode }).format(value);
  if (typeof value === 'number' && field.numberStyle !== undefined && applied('numberStyle')) {
    if (field.numberStyle === 'PKNumberStylePercent') return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(value);
    if (field.numberStyle === 'PKNumberStyleDecimal') return new Intl.NumberFormat(locale).format(value);
    if (field.numberStyle === 'PKNumberStyleScientific') return new Intl.NumberFormat(locale, { notation: 'scientific' }).format(value);
  }
  const dateStyle = DATE_STYLES[field.dateStyle ?? ''];
  const timeStyle = DATE_STYLES[field.timeStyle ?? ''];
  if (typeof value === 'string' && (dateStyle !== undefined || timeStyle !== undefined) && applied('dateStyle')) {
    // The wall-clock time the value is written in (no time zone option is given), its zone never named.
    const wall = new Date(`${value.slice(0, 19)}Z`);
    return new Intl.DateTimeFormat(locale, { ...(dateStyle && { dateStyle }), ...(timeStyle && { timeStyle }), timeZone: 'UTC' })
      .formatToParts(wall)
      .filter((part) => part.type !== 'timeZoneName')
      .map((part) => part.value)
      .join('')
      .trimEnd();
  }
  return String(value);
}

describe('toGoogleWallet (property)', () => {
  test('every value of a rendered pass — fields, labels, top-level keys, semantic tags — is in the Google class or object (formatted as Wallet shows it) or named in losses', () => {
    fc.assert(
      fc.property(googlePass, mapOptions, (input, options) => {
        const before = structuredClone(input);
        const result = toGoogleWallet(input, options);
        expect(input).toEqual(before);
        // Intl writes a space or a narrow no-break space before AM/PM depending on the call: compared alike.
        const shown = JSON.stringify([result.class, result.object]).replace(/\u202f/g, ' ');
        // `shown` is JSON text: a value stands in it as its JSON string literal (a `"` as `\"`).
        const inShown = (text: string): boolean => shown.includes(JSON.stringify(text.replace(/\u202f/g, ' ')).slice(1, -1));
        const covered = (pointer: string): boolean =>
          result.losses.some((loss) => loss.path !== '' && (pointer === loss.path || pointer.startsWith(`${loss.path}/`)));
        const locale = options.locale ?? options.language ?? 'en-US';
        const styleName = STYLES.find((name) => input[name] !== undefined) ?? 'posterGeneric';

        for (const [pointer, value] of leaves(input)) {
          if (NOT_SHOWN.some((pattern) => pattern.test(pointer)) || covered(pointer)) continue;
          const fieldValue = /^\/(\w+)\/(\w+Fields)\/(\d+)\/value$/.exec(pointer);
          if (fieldValue !== null) {
            const field = (input as unknown as Record<string, Record<string, Field[]>>)[fieldValue[1]!]![fieldValue[2]!]![Number(fieldValue[3])]!;
            const base = pointer.slice(0, -'/value'.length);
            const text = shownValue(field, locale, (key) => !covered(`${base}/${key}`));
            expect(inShown(text), `${pointer}: ${JSON.stringify(text)}`).toBe(true);
            continue;
          }
          if (pointer === '/backgroundColor') {
            expect(result.class['hexBackgroundColor'] ?? result.object['hexBackgroundColor'], pointer).toMatch(/^#[0-9a-f]{6}$/);
            continue;
          }
          if (typeof value === 'boolean') {
            // A boolean carries over only as what it switches: false for Apple's defaults is nothing to show.
            expect(value === false && /\/isRelative$/.test(pointer), `${pointer}: ${value} neither shown nor named`).toBe(true);
            continue;
          }
          const text = String(value);
          // A flight's local times lose their offset (Google wants none).
          expect(inShown(text) || (pointer.startsWith('/semantics/') && inShown(text.slice(0, 19))), `${pointer}: ${JSON.stringify(text)}`).toBe(true);
        }
        // Ids carry the pass type and serial; voided passes are inactive; a boarding pass is a flight or transit unless the loss says why not.
        expect(result.object['id']).toBe(`${options.issuerId}.${escapeIdPart(input.passTypeIdentifier)}.${escapeIdPart(input.serialNumber)}`);
        expect(result.object['state']).toBe(input.voided === true ? 'INACTIVE' : 'ACTIVE');
        if (styleName === 'boardingPass' && result.type === 'generic') expect(result.losses.some((loss) => loss.code === 'google-type-changed')).toBe(true);
        expect(((result.object['textModulesData'] ?? []) as unknown[]).length).toBeLessThanOrEqual(10);
      }),
      { numRuns: RUNS },
    );
  });

  test("any JSON shape in a pass's places: a result or a typed invalid-pass error, never another throw; losses are located", () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    const hostile = fc.record(
      {
        generic: value,
        eventTicket: value,
        posterGeneric: value,
        boardingPass: value,
        semantics: value,
        barcodes: value,
        barcode: value,
        logoText: value,
        description: value,
        backgroundColor: value,
        expirationDate: value,
        groupingIdentifier: value,
        featuredActions: value,
        ['__proto__']: value,
        constructor: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(hostile, (parts) => {
        const input = JSON.parse(
          JSON.stringify({ formatVersion: 1, passTypeIdentifier: 'pass.x', serialNumber: 's', teamIdentifier: 'T', organizationName: 'O', ...parts }),
        ) as Pass;
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
          toGoogleWallet(
            { formatVersion: 1, passTypeIdentifier, serialNumber, teamIdentifier: 'T', organizationName: 'O', description: '', generic: {} },
            { issuerId: '1' },
          ).object['id'];
        expect(id(typeA, serialA)).not.toBe(id(typeB, serialB));
      }),
      { numRuns: RUNS },
    );
  });
});
