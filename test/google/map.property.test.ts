import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toGoogleWallet } from '../../src/google/index.js';
import { escapeIdPart } from '../../src/google/ids.js';
import { pointerOf } from '../../src/issues.js';
import type { Field, Pass } from '../../src/index.js';
import { hostileKey, literalText, pathSegmentText, RUNS } from '../arbitraries.js';

const AREAS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'] as const;
const STYLES = ['generic', 'eventTicket', 'coupon', 'storeCard', 'boardingPass'] as const;

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

/** A rendered pass of any style, with up to 16 fields spread over the five areas, keys unique. */
const pass: fc.Arbitrary<Pass> = fc
  .record({
    style: fc.constantFrom(...STYLES),
    transitType: fc.constantFrom('PKTransitTypeAir', 'PKTransitTypeTrain', 'PKTransitTypeBus'),
    keys: fc.uniqueArray(hostileKey, { maxLength: 16, size: 'max' }),
    fields: fc.array(fc.tuple(fc.constantFrom(...AREAS), field), { minLength: 16, maxLength: 16 }),
    serialNumber: pathSegmentText,
  })
  .map(({ style, transitType, keys, fields, serialNumber }) => {
    const body: Record<string, unknown> = style === 'boardingPass' ? { transitType } : {};
    keys.forEach((key, index) => {
      const [area, rest] = fields[index]!;
      ((body[area] ??= []) as Field[]).push({ ...rest, key });
    });
    return { formatVersion: 1, passTypeIdentifier: 'pass.com.example.property', serialNumber, teamIdentifier: 'A93A5CM278', organizationName: 'Org', description: 'd', [style]: body } as Pass;
  });

describe('toGoogleWallet (property)', () => {
  test('every field of a rendered pass appears in the Google object or is named in losses', () => {
    fc.assert(
      fc.property(pass, (input) => {
        const before = structuredClone(input);
        const result = toGoogleWallet(input, { issuerId: '3388000000012345678' });
        expect(input).toEqual(before);
        const style = STYLES.find((name) => input[name] !== undefined)!;
        const modules = new Map(((result.object['textModulesData'] ?? []) as { id: string; body: string; header?: string }[]).map((module) => [module.id, module]));
        const lost = new Set(result.losses.map((loss) => loss.path));
        for (const area of AREAS) {
          (input[style]?.[area] ?? []).forEach((entry, index) => {
            const pointer = pointerOf('', [style, area, index]);
            const module = modules.get(escapeIdPart(entry.key));
            const asHeader = style === 'generic' && area === 'primaryFields' && index === 0 && (result.object['header'] as { defaultValue: { value: string } }).defaultValue.value === String(entry.value);
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
        expect(modules.size).toBeLessThanOrEqual(10);
        expect(result.object['id']).toMatch(/^3388000000012345678\.[A-Za-z0-9._-]+$/);
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
