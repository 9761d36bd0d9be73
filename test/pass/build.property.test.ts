import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { PassValidationError, RenderError, TemplateError } from '../../src/errors.js';
import { buildPass, type BuildPassOptions } from '../../src/pass/build.js';
import { PASS_BODY_SITES } from '../../src/rules/pass-body.js';
import { siteChecks } from '../../src/pass/site-checks.js';
import { validatePass } from '../../src/pass/validate.js';
import { compileTemplate, type CompiledTemplate } from '../../src/template/compile.js';
import { planOf } from '../../src/template/registry.js';
import type { PassIssuer, PassTemplate } from '../../src/types.js';
import { RUNS } from '../arbitraries.js';

// buildPass validates incrementally (rules/sites.ts); these properties hold it
// to validatePass on random templates with placeholders at random places and
// random values, valid and not.

const NAMES = ['a', 'b', 'c', 'd'] as const;
const name = fc.constantFrom(...NAMES);

/** A member: a static value from `statics`, a whole-value placeholder, or a placeholder inside text. */
function slot(statics: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: statics },
    { weight: 2, arbitrary: name.map((n) => `\${${n}}`) },
    { weight: 1, arbitrary: name.map((n) => `at \${${n}}`) },
  );
}

// Static parts: mostly what the location wants (else the template check refuses the template).
const pick = <T>(good: readonly T[], bad: readonly unknown[]): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
const text = pick(['Concert', 'Row 12', '', 'Now %@'], [1, true, [], {}]);
const date = pick(['2026-05-07T10:30-05:00', '2026-05-07T10:30:00Z'], ['2026-05-07T10:30:00+0000', '2026-02-30T10:00Z', 5]);
const color = pick(['rgb(60, 65, 76)', 'rgb(60,65,76)', '#fff', '#3c414c'], ['red', 1]);
const alignment = pick(['PKTextAlignmentLeft', 'PKTextAlignmentRight'], ['Left']);
const dateStyle = pick(['PKDateStyleShort', 'PKDateStyleNone'], ['Short']);
const numberStyle = pick(['PKNumberStyleDecimal'], ['Decimal']);
const format = pick(['PKBarcodeFormatQR', 'PKBarcodeFormatPDF417'], ['PKBarcodeFormatCode128', 'QR']);
const odd = fc.constantFrom<unknown>(1, true, [], {}, ['x'], { k: 1 }, 'text');

/** `entries`, each present now and then: a sparse object. */
function sparse(entries: { readonly [key: string]: fc.Arbitrary<unknown> }, required: readonly string[] = [], rate = 4): fc.Arbitrary<Record<string, unknown>> {
  const absent = Symbol('absent');
  const members = Object.fromEntries(
    Object.entries(entries).map(([key, arbitrary]) => [
      key,
      required.includes(key) ? arbitrary : fc.oneof({ weight: rate, arbitrary: fc.constant(absent) }, { weight: 1, arbitrary }),
    ]),
  );
  return fc.record(members).map((record) => Object.fromEntries(Object.entries(record).filter(([, member]) => member !== absent)));
}

type Slot = (statics: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>;

/**
 * Pass bodies with placeholders at random places. `hard` makes the members
 * no cheap test covers (enums, field keys, numbers with ranges, containers
 * rendered whole …): `slot` puts placeholders there too; a static-only
 * `hard` gives templates buildPass validates incrementally.
 */
function bodyArbitrary(hard: Slot): fc.Arbitrary<Record<string, unknown>> {
  function field(index: number, list: string): fc.Arbitrary<Record<string, unknown>> {
    return sparse(
      {
        key: fc.oneof(
          { weight: 6, arbitrary: fc.constant(`k${index}`) },
          { weight: 1, arbitrary: fc.constant('k1') },
          { weight: 2, arbitrary: hard(fc.constant(`k${index}`)) },
        ),
        value: slot(fc.oneof(text, date, fc.constantFrom(3, 0.5, -1))),
        label: slot(text),
        attributedValue: slot(pick(['<a href="https://x">x</a>', '<b>x</b>', 5], [[]])),
        changeMessage: hard(pick(['Now %@'], ['Now'])),
        ...(list === 'primaryFields' || list === 'backFields' ? {} : { textAlignment: hard(alignment) }),
        dateStyle: hard(dateStyle),
        timeStyle: hard(dateStyle),
        numberStyle: hard(numberStyle),
        currencyCode: hard(pick(['EUR'], ['eur'])),
        isRelative: hard(fc.boolean()),
        semantics: hard(fc.constantFrom<unknown>({}, { seat: '${a}' }, { seat: 1 })),
        row: hard(pick([0, 1], [2])),
        extra: slot(odd),
      },
      ['key', 'value'],
      6,
    );
  }

  const fieldList = (list: string, offset: number): fc.Arbitrary<unknown> =>
    fc.oneof(
      { weight: 12, arbitrary: fc.tuple(field(offset, list), field(offset + 1, list), field(offset + 2, list)).chain(([x, y, z]) => fc.subarray([x, y, z])) },
      { weight: 1, arbitrary: hard(fc.constant([])) },
      { weight: 1, arbitrary: fc.array(hard(fc.constant({ key: 'kx', value: 'v' })), { maxLength: 1 }) },
    );

  const LISTS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'] as const;
  const styleBody = (style: string): fc.Arbitrary<Record<string, unknown>> =>
    sparse(
      {
        ...Object.fromEntries(LISTS.map((list, index) => [list, fieldList(list, index * 10)])),
        ...(style === 'boardingPass' ? { transitType: hard(pick(['PKTransitTypeAir'], ['Plane'])) } : {}),
        unknownMember: slot(odd),
      },
      style === 'boardingPass' ? ['transitType'] : [],
      1,
    );

  const barcode = sparse({ message: slot(text), format: hard(format), messageEncoding: hard(pick(['iso-8859-1'], [1])), altText: slot(text) }, [
    'message',
    'format',
    'messageEncoding',
  ]);

  const body: fc.Arbitrary<Record<string, unknown>> = fc
    .constantFrom('generic', 'eventTicket', 'boardingPass', 'coupon', 'storeCard')
    .chain((style) =>
      fc.tuple(
        fc.constant(style),
        hard(styleBody(style)),
        sparse({
          barcode: hard(barcode),
          barcodes: fc.array(hard(barcode), { maxLength: 2 }),
          logoText: slot(text),
          foregroundColor: slot(color),
          backgroundColor: slot(color),
          labelColor: slot(color),
          footerBackgroundColor: slot(color),
          relevantDate: slot(date),
          expirationDate: slot(date),
          relevantDates: fc.array(sparse({ startDate: slot(date), endDate: slot(date) }, [], 1), { maxLength: 2 }),
          voided: hard(fc.boolean()),
          locations: fc.array(
            sparse({ latitude: hard(pick([10], [95])), longitude: hard(fc.constant(5)), relevantText: slot(text) }, ['latitude', 'longitude']),
            {
              maxLength: 2,
            },
          ),
          beacons: fc.array(sparse({ proximityUUID: slot(text), major: hard(pick([1], [70000])) }, ['proximityUUID']), { maxLength: 1 }),
          nfc: sparse({ message: hard(pick(['short'], ['x'.repeat(70)])), encryptionPublicKey: slot(text) }, ['message']),
          preferredStyleSchemes: fc.array(slot(text), { maxLength: 2 }),
          ...(style === 'eventTicket' || style === 'boardingPass' ? { groupingIdentifier: slot(text) } : {}),
          appLaunch: fc.tuple(slot(text), fc.array(hard(pick([1, 2], ['x'])), { minLength: 1, maxLength: 2 })),
          userInfo: hard(fc.constantFrom<unknown>({}, { a: '${a}', b: ['${b}'] })),
          semantics: hard(fc.constantFrom<unknown>({ x: '${c}' })),
          unknownKey: slot(odd),
          // Pass-level keys in a body are replaced by the issuer's.
          serialNumber: slot(text),
          webServiceURL: slot(text),
        }),
      ),
    )
    .map(([style, structure, rest]) => {
      const { appLaunch, ...others } = rest;
      const launch = appLaunch === undefined ? {} : { appLaunchURL: (appLaunch as unknown[])[0], associatedStoreIdentifiers: (appLaunch as unknown[])[1] };
      return { ...others, ...launch, [style]: structure };
    });
  return body;
}

const value = fc.oneof(
  {
    weight: 40,
    arbitrary: fc.constantFrom<unknown>(
      'Concert',
      '',
      'k1',
      'k20',
      '${a}',
      '2026-05-07T10:30-05:00',
      '2026-05-07T10:30:00+0000',
      'rgb(1, 2, 3)',
      '#abc',
      'red',
      'PKTextAlignmentLeft',
      'PKDateStyleShort',
      'PKNumberStyleDecimal',
      'PKBarcodeFormatQR',
      'PKBarcodeFormatCode128',
      'PKTransitTypeAir',
      'EUR',
      'Now %@',
      'x'.repeat(70),
      // Not every barcode can hold these: outside iso-8859-1, or over a PDF417 symbol's bytes.
      'Café €',
      'é'.repeat(1200),
      0,
      1,
      70000,
      -3.5,
      true,
      false,
      [],
      [1],
      ['Concert'],
      {},
      { key: 'k9', value: 'v' },
      { primaryFields: [] },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, Number.NaN) }, // invalid values: both paths throw RenderError
);
const values = fc.record({ a: value, b: value, c: value, d: value });

const issuerArbitrary = fc.record(
  {
    teamIdentifier: fc.constantFrom('A93A5CM278', 'team'),
    organizationName: fc.constant('Example'),
    webServiceURL: pick(['https://passes.example.com/'], ['http://localhost:8080/', 'ftp://x', 'not a url']),
    serialNumber: pick(['abc', 'a b/c', '2f7bd3bd-0a4c-4b1e-9f0c-6d0b8a6f3e51'], ['']),
    authenticationToken: fc.constantFrom('0123456789abcdef', 'c2a0e6a4-4f0e-4d3b-8b3e-3a7c1c9e2d10'),
    description: fc.constantFrom('', 'Ticket'),
  },
  { requiredKeys: ['teamIdentifier', 'organizationName'] },
) as fc.Arbitrary<PassIssuer>;

const options = fc.record({ colors: fc.constantFrom('rgb', 'keep'), allowHttp: fc.boolean() }, { requiredKeys: [] }) as fc.Arbitrary<BuildPassOptions>;

function compile(description: unknown, passType: string): CompiledTemplate | undefined {
  const template = { id: 1, name: 'Generated', formatVersion: 1, passType, description, placeholder: [...NAMES] } as unknown as PassTemplate;
  try {
    return compileTemplate(template);
  } catch (error) {
    if (error instanceof TemplateError) return undefined;
    throw error;
  }
}

function outcome(run: () => unknown): { pass: unknown } | { error: unknown } {
  try {
    return { pass: run() };
  } catch (error) {
    return { error };
  }
}

describe('buildPass validation agrees with validatePass', () => {
  // Generated serial numbers and tokens are made the same in both builds.
  beforeEach(() => {
    vi.spyOn(crypto, 'randomUUID').mockReturnValue('00000000-0000-4000-8000-000000000000');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  type Seen = { compiled: number; incremental: number; valid: number; refused: number };

  /** buildPass against validatePass on one random case. */
  function agree(seen: Seen): fc.IProperty<[Record<string, unknown>, unknown, Record<string, unknown>, PassIssuer, BuildPassOptions]> {
    return fc.property(
      bodyArbitrary(hardSlot),
      pick(['pass.com.example.gen'], ['pass.gen']),
      values,
      issuerArbitrary,
      options,
      (description, passType, input, issuer, given) => {
        const compiled = compile(description, passType as string);
        if (compiled === undefined) return;
        seen.compiled++;
        if (siteChecks(planOf(compiled)?.root ?? { kind: 'constant', value: null }, PASS_BODY_SITES) !== undefined) seen.incremental++;
        const unchecked = outcome(() => buildPass(compiled, input, issuer, { ...given, validate: false }));
        const checked = outcome(() => buildPass(compiled, input, issuer, given));
        if ('error' in unchecked) {
          // Render and issuer errors come before validation, the same with it or without.
          expect(unchecked.error instanceof RenderError || unchecked.error instanceof PassValidationError).toBe(true);
          expect('error' in checked && checked.error).toBeInstanceOf((unchecked.error as Error).constructor);
          expect('error' in checked && (checked.error as PassValidationError).issues).toEqual((unchecked.error as PassValidationError).issues);
          return;
        }
        const report = validatePass(unchecked.pass, given.allowHttp === true ? { allowHttp: true } : {});
        if (report.ok) {
          seen.valid++;
          expect(checked).toEqual({ pass: unchecked.pass });
        } else {
          seen.refused++;
          expect('error' in checked && checked.error).toBeInstanceOf(PassValidationError);
          expect('error' in checked && (checked.error as PassValidationError).issues).toEqual(report.issues);
        }
      },
    );
  }
  let hardSlot: Slot = slot;

  test('placeholders anywhere: throws PassValidationError iff validatePass finds an error, with its issues; else the same pass', () => {
    const seen: Seen = { compiled: 0, incremental: 0, valid: 0, refused: 0 };
    hardSlot = slot;
    fc.assert(agree(seen), { numRuns: RUNS });
    // The generator reaches every branch (most of these templates are validated in full).
    expect(seen.compiled).toBeGreaterThan(RUNS / 3);
    expect(seen.incremental).toBeGreaterThan(0);
    expect(seen.valid).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(RUNS / 10);
  });

  test('placeholders where cheap tests decide (validated incrementally): the same agreement', () => {
    const seen: Seen = { compiled: 0, incremental: 0, valid: 0, refused: 0 };
    hardSlot = (statics) => statics;
    fc.assert(agree(seen), { numRuns: RUNS });
    expect(seen.incremental).toBeGreaterThan(seen.compiled * 0.8);
    expect(seen.compiled).toBeGreaterThan(RUNS / 3);
    expect(seen.valid).toBeGreaterThan(RUNS / 20);
    expect(seen.refused).toBeGreaterThan(RUNS / 10);
  });
});
