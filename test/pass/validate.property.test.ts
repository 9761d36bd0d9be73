import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Issue, IssueCode } from '../../src/issues.js';
import { checkPassRules } from '../../src/rules/pass-body.js';
import { validatePass } from '../../src/pass/validate.js';
import { checkPassShape } from '../../src/schema/check.js';
import { RUNS } from '../arbitraries.js';
import { validPasses } from './passes.js';

// Every code of the union, checked both ways by the compiler.
const CODES: { readonly [K in IssueCode]: true } = {
  'invalid-placeholder': true,
  'unterminated-placeholder': true,
  'invalid-template': true,
  'undeclared-placeholder': true,
  'unused-placeholder': true,
  'duplicate-placeholder': true,
  'missing-value': true,
  'invalid-value': true,
  'unknown-value': true,
  'invalid-issuer': true,
  'invalid-pass': true,
  'missing-key': true,
  'invalid-type': true,
  'unknown-key': true,
  'invalid-format-version': true,
  'invalid-pass-type-identifier': true,
  'invalid-team-identifier': true,
  'empty-serial-number': true,
  'unsafe-serial-number': true,
  'short-authentication-token': true,
  'invalid-web-service-url': true,
  'insecure-web-service-url': true,
  'unpaired-web-service': true,
  'missing-store-identifiers': true,
  'missing-style': true,
  'multiple-styles': true,
  'missing-transit-type': true,
  'invalid-transit-type': true,
  'unexpected-transit-type': true,
  'unexpected-grouping-identifier': true,
  'duplicate-field-key': true,
  'invalid-text-alignment': true,
  'text-alignment-not-allowed': true,
  'invalid-date-style': true,
  'date-style-needs-date': true,
  'incomplete-date-style': true,
  'invalid-number-style': true,
  'invalid-currency-code': true,
  'number-style-needs-number': true,
  'currency-code-needs-number': true,
  'number-style-with-currency': true,
  'invalid-data-detector': true,
  'data-detectors-outside-back': true,
  'invalid-change-message': true,
  'unsupported-attributed-value': true,
  'invalid-barcode-format': true,
  'code128-in-barcode': true,
  'invalid-color': true,
  'hex-color': true,
  'invalid-date': true,
  'out-of-range': true,
  'nfc-message-too-long': true,
  'invalid-nfc-public-key': true,
  'nfc-sharing-allowed': true,
  'invalid-certificate': true,
  'invalid-key': true,
  'wrong-passphrase': true,
  'key-mismatch': true,
  'wrong-wwdr': true,
  'certificate-expired': true,
  'certificate-not-yet-valid': true,
  'not-pass-certificate': true,
  'invalid-zip': true,
  'zip-limit-exceeded': true,
  'unsafe-path': true,
  'reserved-path': true,
  'duplicate-entry': true,
  'missing-pass-json': true,
  'invalid-json': true,
  'missing-icon': true,
  'not-png': true,
  'unused-image': true,
  'unused-file': true,
  'image-size': true,
  'image-too-large': true,
  'development-certificate': true,
  'invalid-strings': true,
  'too-many-passes': true,
  'missing-manifest': true,
  'invalid-manifest': true,
  'missing-from-manifest': true,
  'missing-file': true,
  'hash-mismatch': true,
  'missing-signature': true,
  'invalid-signature': true,
  'signature-mismatch': true,
  'digest-mismatch': true,
  'missing-signing-time': true,
  'missing-certificate': true,
  'missing-wwdr': true,
  'untrusted-chain': true,
  'identity-mismatch': true,
  'duplicate-key': true,
  'too-many-fields': true,
  'unknown-message-encoding': true,
  'barcode-message-unencodable': true,
  'barcode-message-too-long': true,
  'signed-content-mismatch': true,
  'lossy-json': true,
  'invalid-personalization-field': true,
  'missing-personalization-logo': true,
  'trailing-comma': true,
  'missing-fallback-style': true,
  'missing-barcode-fallback': true,
  'too-many-featured-actions': true,
  'unknown-featured-action-type': true,
  'duplicate-featured-action': true,
  'unknown-style-scheme': true,
  'style-scheme-fallback': true,
};

// Codes that name a member that is not there (so only its parent exists).
const ABSENT_MEMBER: ReadonlySet<IssueCode> = new Set<IssueCode>([
  'missing-key',
  'unpaired-web-service',
  'missing-store-identifiers',
  'missing-transit-type',
  // a semantic tag a poster event ticket lacks
  'style-scheme-fallback',
  // `sharingProhibited`, advised beside an NFC payload that requires authentication
  'nfc-sharing-allowed',
]);

type Found = { readonly found: true; readonly value: unknown } | { readonly found: false };

/** Resolves an RFC 6901 pointer through own properties only; `null` for a malformed pointer. */
function resolve(root: unknown, pointer: string): Found | null {
  if (pointer === '') return { found: true, value: root };
  if (!pointer.startsWith('/')) return null;
  let current = root;
  for (const raw of pointer.slice(1).split('/')) {
    if (/~[^01]|~$/.test(raw)) return null;
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, token)) return { found: false };
    if (Array.isArray(current) && !/^(?:0|[1-9]\d*)$/.test(token)) return { found: false };
    current = (current as { readonly [key: string]: unknown })[token];
    if (current === undefined) return { found: false };
  }
  return { found: true, value: current };
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

/** The invariants every report must hold, whatever was validated. */
function expectSoundReport(value: unknown, options?: { allowHttp: boolean }): Issue[] {
  const report = validatePass(value, options);
  expect(Object.keys(report).sort()).toEqual(['issues', 'ok']);
  expect(Array.isArray(report.issues)).toBe(true);
  expect(report.ok).toBe(!report.issues.some((issue) => issue.severity === 'error'));
  for (const issue of report.issues) {
    expect(Object.hasOwn(CODES, issue.code)).toBe(true);
    expect(['error', 'warning']).toContain(issue.severity);
    expect(typeof issue.message).toBe('string');
    expect(issue.message.length).toBeGreaterThan(0);
    if (issue.code === 'invalid-pass') continue; // an unreadable value: reported at the root
    const at = resolve(value, issue.path);
    expect(at, `malformed pointer ${JSON.stringify(issue.path)}`).not.toBeNull();
    if (at?.found === true) continue;
    // Only a member that is missing may be pointed at without existing, and its parent must exist.
    expect(ABSENT_MEMBER.has(issue.code), `${issue.code} at ${issue.path} points nowhere`).toBe(true);
    expect(resolve(value, parentOf(issue.path))?.found).toBe(true);
  }
  return report.issues as Issue[];
}

// Values that hit the rules' edges more often than random JSON does.
const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    'PKBarcodeFormatCode128',
    'PKBarcodeFormatQR',
    'PKTextAlignmentLeft',
    'PKDateStyleShort',
    'PKNumberStylePercent',
    'PKTransitTypeAir',
    'PKDataDetectorTypeLink',
    '#fff',
    'rgb(1, 2, 3)',
    'rgb(300, 2, 3)',
    '2026-05-07T10:30Z',
    '2026-05-07T10:30:00+0000',
    'EUR',
    '%@',
    '<b>x</b>',
    'http://example.com/',
    'https://example.com/',
    'pass.com.example.x',
    '',
    'x'.repeat(70),
    65536,
    -1,
    91,
    1.5,
    0,
    1,
    true,
    null,
  ),
  fc.constant({}),
  fc.constant([]),
  fc.jsonValue({ maxDepth: 2 }),
);

const edgeKey = fc.constantFrom(
  'transitType',
  'textAlignment',
  'dateStyle',
  'timeStyle',
  'numberStyle',
  'currencyCode',
  'dataDetectorTypes',
  'changeMessage',
  'attributedValue',
  'groupingIdentifier',
  'appLaunchURL',
  'associatedStoreIdentifiers',
  'barcode',
  'barcodes',
  'coupon',
  'generic',
  'boardingPass',
  'key',
  'value',
  'format',
  'message',
  'latitude',
  'major',
  'nfc',
  'row',
  'webServiceURL',
  'authenticationToken',
  'relevantDate',
  'foregroundColor',
  '__proto__',
  'a/b~c',
);

type Operation = { readonly kind: 'set' | 'delete' | 'add'; readonly at: number; readonly key: string; readonly value: unknown };

const operation: fc.Arbitrary<Operation> = fc.record({
  kind: fc.constantFrom('set', 'delete', 'add'),
  at: fc.nat(),
  key: edgeKey,
  value: edgeValue,
});

/** Every location inside a JSON value, as [container, key] pairs. */
function locations(value: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []): typeof out {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      out.push([value, index]);
      locations(item, out);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      out.push([value as Record<string, unknown>, key]);
      locations((value as Record<string, unknown>)[key], out);
    }
  }
  return out;
}

function containers(value: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [value as Record<string, unknown>];
  for (const [container, key] of locations(value)) {
    const child = (container as Record<string, unknown>)[key as string];
    if (typeof child === 'object' && child !== null && !Array.isArray(child)) found.push(child as Record<string, unknown>);
  }
  return found;
}

function mutate(base: unknown, operations: readonly Operation[]): unknown {
  const pass = structuredClone(base) as Record<string, unknown>;
  for (const { kind, at, key, value } of operations) {
    if (kind === 'add') {
      const all = containers(pass);
      Object.defineProperty(all[at % all.length], key, { value: structuredClone(value), enumerable: true, writable: true, configurable: true });
      continue;
    }
    const all = locations(pass);
    if (all.length === 0) continue;
    const [container, member] = all[at % all.length] as [Record<string, unknown> | unknown[], string | number];
    if (kind === 'set') (container as Record<string, unknown>)[member] = structuredClone(value);
    else if (Array.isArray(container)) container.splice(member as number, 1);
    else delete container[member as string];
  }
  return pass;
}

const mutatedPass = fc
  .tuple(fc.constantFrom(...Object.values(validPasses)), fc.array(operation, { minLength: 1, maxLength: 4 }))
  .map(([base, operations]) => mutate(base, operations));

describe('validatePass properties', () => {
  test('never throws on any JSON value, and the report is sound', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expectSoundReport(value);
      }),
      { numRuns: RUNS },
    );
  });

  test('never throws on anything JavaScript has (BigInt, symbols, Maps, null prototypes, boxed values …)', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withTypedArray: true,
      withSparseArray: true,
      withUnicodeString: true,
    });
    fc.assert(
      fc.property(anything, (value) => {
        const report = validatePass(value);
        expect(typeof report.ok).toBe('boolean');
        expect(report.issues.every((issue) => Object.hasOwn(CODES, issue.code) && typeof issue.path === 'string')).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  test('mutated valid passes: sound reports, for allowHttp too', () => {
    fc.assert(
      fc.property(mutatedPass, fc.boolean(), (pass, allowHttp) => {
        expectSoundReport(pass, { allowHttp });
      }),
      { numRuns: RUNS },
    );
  });

  test('the rules see everything the schema sees: each schema issue has a rules error at its path', () => {
    fc.assert(
      fc.property(mutatedPass, (pass) => {
        const rules = checkPassRules(pass, false);
        const errorPaths = new Set(rules.filter((issue) => issue.severity === 'error').map((issue) => issue.path));
        for (const issue of checkPassShape(pass)) {
          expect(errorPaths.has(issue.path), `${issue.code} at ${issue.path}: ${issue.message}`).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('the schema passes every pass the rules find no error in', () => {
    fc.assert(
      fc.property(mutatedPass, (pass) => {
        if (validatePass(pass).ok) expect(checkPassShape(pass)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  test('pure: the same report for a deep copy, and the input unchanged', () => {
    fc.assert(
      fc.property(mutatedPass, (pass) => {
        const before = JSON.stringify(pass);
        const report = validatePass(pass);
        expect(JSON.stringify(pass)).toBe(before);
        expect(validatePass(structuredClone(pass))).toEqual(report);
      }),
      { numRuns: RUNS },
    );
  });

  test('one issue per code and path', () => {
    fc.assert(
      fc.property(mutatedPass, (pass) => {
        const keys = validatePass(pass)
          .issues.filter((issue) => issue.code !== 'unsupported-attributed-value')
          .map((issue) => `${issue.code} ${issue.path}`);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: RUNS },
    );
  });
});
