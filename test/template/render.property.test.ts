import fc from 'fast-check';
import Handlebars from 'handlebars';
import { describe, expect, test } from 'vitest';
import { compileTemplate, validateTemplate, type PassTemplate } from '../../src/index.js';
import {
  exactShape,
  literalText,
  notationText,
  placeholderName,
  RUNS,
  specArbitrary,
  specExpected,
  specNames,
  specToTemplate,
  templateOf,
} from '../arbitraries.js';

const names = fc.uniqueArray(placeholderName, { minLength: 1, maxLength: 5 });
const textValue = fc.oneof(notationText, fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());
const wholeValue = fc.oneof(
  textValue,
  fc.jsonValue().filter((value) => value !== null),
);

function userInfo(body: unknown): unknown {
  return (body as { userInfo: { body: unknown } }).userInfo.body;
}

describe('rendering properties', () => {
  test('replaces exactly the placeholders, values verbatim, everything else untouched, inputs unchanged', () => {
    const arbitrary = names.chain((pool) =>
      fc.record({
        pool: fc.constant(pool),
        spec: specArbitrary(pool, literalText),
        values: fc.tuple(...pool.map(() => textValue)),
      }),
    );
    fc.assert(
      fc.property(arbitrary, ({ pool, spec, values: list }) => {
        const values = Object.fromEntries(pool.map((name, index) => [name, list[index]]));
        const template = templateOf(specToTemplate(spec), pool) as unknown as PassTemplate;
        const before = JSON.stringify([template, values]);
        const body = compileTemplate(template).render(values);
        expect(exactShape(userInfo(body))).toBe(exactShape(specExpected(spec, values)));
        expect(JSON.stringify([template, values])).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });

  test('a whole-value placeholder gives the value itself, deep-equal but not shared', () => {
    fc.assert(
      fc.property(placeholderName, wholeValue, (name, value) => {
        const template = templateOf({ v: `\${${name}}` }, [name]) as unknown as PassTemplate;
        const out = userInfo(compileTemplate(template).render({ [name]: value })) as { v: unknown };
        expect(out.v).toStrictEqual(value);
        if (typeof value === 'object') expect(out.v).not.toBe(value);
      }),
      { numRuns: RUNS },
    );
  });

  test("validateTemplate's undeclared set is exactly used minus declared", () => {
    const arbitrary = fc
      .tuple(names, names)
      .chain(([used, declared]) => fc.record({ declared: fc.constant(declared), spec: specArbitrary(used, literalText) }));
    fc.assert(
      fc.property(arbitrary, ({ declared, spec }) => {
        const report = validateTemplate(templateOf(specToTemplate(spec), declared));
        const undeclared = new Set(report.issues.filter((i) => i.code === 'undeclared-placeholder').map((i) => i.placeholder));
        const expected = new Set([...specNames(spec)].filter((name) => !declared.includes(name)));
        expect(undeclared).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  test('validateTemplate never throws and always reports, on any value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), fc.record({ description: fc.anything(), placeholder: fc.anything() })), (value) => {
        const report = validateTemplate(value);
        expect(typeof report.ok).toBe('boolean');
        expect(Array.isArray(report.issues)).toBe(true);
        for (const issue of report.issues) expect(typeof issue.path).toBe('string');
      }),
      { numRuns: RUNS },
    );
  });

  test('differential: the same output as Handlebars with {{x}} and noEscape', () => {
    // Texts where both notations mean the same: identifier names, no braces or
    // JSON escapes in literals, string values that need no JSON escaping.
    // Handlebars gives some identifiers a meaning of its own: {{else}}, {{this}}, and its built-in helpers.
    const keywords = new Set(['else', 'this', ...Object.keys(Handlebars.helpers)]);
    const identifier = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,7}$/).filter((name) => !keywords.has(name));
    const plain = fc.stringMatching(/^[a-zA-Z0-9 .,:;!?@#%&*()+=\-éü€]{0,8}$/);
    const arbitrary = fc
      .uniqueArray(identifier, { minLength: 1, maxLength: 4 })
      .chain((pool) => fc.record({ pool: fc.constant(pool), spec: specArbitrary(pool, plain, plain), values: fc.tuple(...pool.map(() => plain)) }));
    fc.assert(
      fc.property(arbitrary, ({ pool, spec, values: list }) => {
        const values = Object.fromEntries(pool.map((name, index) => [name, list[index]]));
        const ours = compileTemplate(templateOf(specToTemplate(spec), pool) as unknown as PassTemplate).render(values);
        const source = JSON.stringify(
          templateOf(
            specToTemplate(spec, (name) => `{{${name}}}`),
            pool,
          )['description'],
        );
        const theirs: unknown = JSON.parse(Handlebars.compile(source, { noEscape: true })(values));
        // Handlebars goes through JSON text, where -0 is written 0: compare ours after the same trip.
        expect(exactShape(JSON.parse(JSON.stringify(ours)))).toBe(exactShape(theirs));
      }),
      { numRuns: RUNS },
    );
  });
});
