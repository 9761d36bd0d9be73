import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { colorForm, parseColor } from '../../src/rules/color.js';
import { PLAIN_HTTPS_URL_FOR_TEST } from '../../src/rules/identity.js';
import { w3cDateProblem } from '../../src/rules/w3c-date.js';
import { RUNS } from '../arbitraries.js';

// The hand-written checks and the published schema must speak the same language.
const schema = JSON.parse(readFileSync(new URL('../../src/schema/pass.schema.json', import.meta.url), 'utf8'));
const schemaColor = new RegExp(schema.$defs.color.pattern, 'u');
const schemaDate = new RegExp(schema.$defs.date.pattern, 'u');

const digits = fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '9'), minLength: 0, maxLength: 4 });
const space = fc.string({ unit: fc.constantFrom(' ', '\t', '\u00a0', 'x'), maxLength: 2 });
const colorLike = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('rgb(', 'RGB(', 'rgb ('),
      space,
      digits,
      space,
      fc.constantFrom(',', ';'),
      space,
      digits,
      space,
      fc.constant(','),
      space,
      digits,
      space,
      fc.constantFrom(')', '', ') '),
    )
    .map((parts) => parts.join('')),
  fc.tuple(fc.constantFrom('#', '##', ''), fc.string({ unit: fc.constantFrom('0', '9', 'a', 'F', 'g'), maxLength: 7 })).map((parts) => parts.join('')),
  fc.string(),
);

const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
const dateLike = fc
  .tuple(
    fc.integer({ min: 1900, max: 2100 }),
    fc.integer({ min: 0, max: 13 }).map((n) => String(n).padStart(2, '0')),
    fc.integer({ min: 0, max: 32 }).map((n) => String(n).padStart(2, '0')),
    fc.constantFrom('T', ' ', 't'),
    two,
    two,
    fc.constantFrom('', ':00', ':59', ':60', ':00.5'),
    fc.constantFrom('Z', '', '+01:00', '-05:30', '+0100', '+24:00', 'z'),
  )
  .map(([y, m, d, t, h, min, s, zone]) => `${y}-${m}-${d}${t}${h}:${min}${s}${zone}`);

describe('the rules and the schema agree', () => {
  test('colors: colorForm accepts exactly what the schema pattern accepts, and parseColor reads them', () => {
    fc.assert(
      fc.property(colorLike, (text) => {
        expect(colorForm(text) !== undefined).toBe(schemaColor.test(text));
        expect(parseColor(text) !== undefined).toBe(schemaColor.test(text));
      }),
      { numRuns: RUNS },
    );
  });

  test('dates: every date the rules accept matches the schema pattern (the rules also check the calendar)', () => {
    fc.assert(
      fc.property(dateLike, (text) => {
        if (w3cDateProblem(text) === undefined) expect(schemaDate.test(text)).toBe(true);
        if (!schemaDate.test(text)) expect(w3cDateProblem(text)).toBeDefined();
      }),
      { numRuns: RUNS },
    );
  });

  test('the fast path of the webServiceURL check only accepts what the URL parser reads as https', () => {
    const label = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '9', '-'), minLength: 1, maxLength: 5 });
    const url = fc
      .tuple(
        fc.array(label, { maxLength: 3 }),
        fc.constantFrom('example', 'x1', 'a-b'),
        fc.constantFrom('', ':0', ':443', ':9999'),
        fc.constantFrom('', '/', '/v1/passes', '?a=%zz', '#x', '/a\\b[c]'),
      )
      .map(([labels, last, port, rest]) => `https://${[...labels, last].join('.')}${port}${rest}`);
    fc.assert(
      fc.property(url, (text) => {
        expect(PLAIN_HTTPS_URL_FOR_TEST.test(text)).toBe(true);
        expect(new URL(text).protocol).toBe('https:');
      }),
      { numRuns: RUNS },
    );
    for (const text of ['https://1.2.3.999/', 'https://0x10/', 'https://a..b/', 'https://x:99999/', 'https:///x', 'https://a b/', 'http://example.com/']) {
      expect(PLAIN_HTTPS_URL_FOR_TEST.test(text)).toBe(false);
    }
  });
});
