import { describe, expectTypeOf, test } from 'vitest';
import {
  buildPass,
  compileTemplate,
  definePassTemplate,
  renderTemplate,
  type CompiledTemplate,
  type Pass,
  type PassBody,
  type PassTemplate,
  type PlaceholderNamesIn,
  type TemplateValue,
  type UsedPlaceholders,
} from '../../src/index.js';

const member = definePassTemplate({
  id: 1,
  name: 'Member',
  formatVersion: 1,
  passType: 'pass.com.example.member',
  description: {
    generic: { primaryFields: [{ key: 'name', value: '${name}' }], secondaryFields: [{ key: 'tier', value: '${tier}' }] },
  },
  placeholder: ['name', 'tier'],
});

describe('placeholder names reach the values type', () => {
  test('definePassTemplate keeps the literal names', () => {
    expectTypeOf(member.placeholder).toEqualTypeOf<readonly ['name', 'tier']>();
  });

  test('compileTemplate types render by the declared names', () => {
    const compiled = compileTemplate(member);
    expectTypeOf(compiled).toEqualTypeOf<CompiledTemplate<'name' | 'tier'>>();
    expectTypeOf(compiled.placeholders).toEqualTypeOf<readonly ('name' | 'tier')[]>();
    expectTypeOf(compiled.render).parameter(0).toEqualTypeOf<{ readonly name: TemplateValue; readonly tier: TemplateValue }>();
    expectTypeOf(compiled.render({ name: 'Ada', tier: 3 })).toEqualTypeOf<PassBody>();
    // @ts-expect-error a declared name is missing
    compiled.render({ name: 'Ada' });
    // @ts-expect-error a misspelt name
    compiled.render({ nmae: 'Ada', tier: 'gold' });
    // @ts-expect-error not a value: undefined
    compiled.render({ name: undefined, tier: 'gold' });
  });

  test('a const literal passed inline is inferred too', () => {
    const compiled = compileTemplate({
      id: 2,
      name: 'Coupon',
      formatVersion: 1,
      passType: 'pass.com.example.coupon',
      description: { coupon: { primaryFields: [{ key: 'off', value: '${percent}' }] } },
      placeholder: ['percent'],
    });
    expectTypeOf(compiled.render).parameter(0).toEqualTypeOf<{ readonly percent: TemplateValue }>();
  });

  test('renderTemplate and buildPass check values the same way', () => {
    expectTypeOf(renderTemplate(member, { name: 'a', tier: 'b' })).toEqualTypeOf<PassBody>();
    // @ts-expect-error tier missing
    renderTemplate(member, { name: 'a' });
    const issuer = { teamIdentifier: 'A93A5CM278', organizationName: 'X' };
    expectTypeOf(buildPass(member, { name: 'a', tier: 'b' }, issuer)).toEqualTypeOf<Pass>();
    // @ts-expect-error tier missing
    buildPass(member, { name: 'a' }, issuer);
  });

  test('a template typed only as PassTemplate accepts any values object', () => {
    const loose: PassTemplate = member;
    expectTypeOf(compileTemplate(loose).render).parameter(0).toEqualTypeOf<{ readonly [key: string]: unknown }>();
  });

  test('template bodies are checked against the pass body shape', () => {
    definePassTemplate({
      id: 3,
      name: 'X',
      formatVersion: 1,
      passType: 'pass.x',
      // a whole-value placeholder may stand for a number or an array
      description: { maxDistance: '${d}', locations: '${l}', generic: { primaryFields: [{ key: 'k', value: 1 }] } },
      placeholder: ['d', 'l'],
    });
    definePassTemplate({
      id: 3,
      name: 'X',
      // @ts-expect-error formatVersion is 1
      formatVersion: 2,
      passType: 'pass.x',
      description: {},
      placeholder: [],
    });
  });
});

describe('placeholder names are read from string literal types', () => {
  test('PlaceholderNamesIn parses the notation', () => {
    expectTypeOf<PlaceholderNamesIn<'Row ${seat}, gate ${gate}!'>>().toEqualTypeOf<'seat' | 'gate'>();
    expectTypeOf<PlaceholderNamesIn<'no placeholders, $5 } {x}'>>().toEqualTypeOf<never>();
    expectTypeOf<PlaceholderNamesIn<'${}${a${b}'>>().toEqualTypeOf<never>();
    expectTypeOf<PlaceholderNamesIn<'${first name}${a}${a}'>>().toEqualTypeOf<'first name' | 'a'>();
  });

  test('UsedPlaceholders walks a const body', () => {
    expectTypeOf<UsedPlaceholders<(typeof member)['description']>>().toEqualTypeOf<'name' | 'tier'>();
  });

  test('definePassTemplate refuses a literal that uses an undeclared name', () => {
    definePassTemplate({
      id: 4,
      name: 'X',
      formatVersion: 1,
      passType: 'pass.x',
      description: { logoText: '${declared}' },
      placeholder: ['declared'],
    });
    // @ts-expect-error 'nmae' is used but not declared
    definePassTemplate({
      id: 4,
      name: 'X',
      formatVersion: 1,
      passType: 'pass.x',
      description: { logoText: '${nmae}' },
      placeholder: ['name'],
    });
  });
});
