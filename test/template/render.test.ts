import { describe, expect, test } from 'vitest';
import { compileTemplate, RenderError, renderTemplate, TemplateError, type Issue, type PassTemplate } from '../../src/index.js';
import { clone, eventBody, eventTicket, eventValues } from '../fixtures.js';

const template = (description: Record<string, unknown>, placeholder: string[]): PassTemplate => ({
  id: 1,
  name: 'T',
  formatVersion: 1,
  passType: 'pass.com.example.t',
  description: { generic: {}, ...description },
  placeholder,
});

function renderError(run: () => unknown): readonly Issue[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RenderError);
    return (error as RenderError).issues;
  }
  throw new Error('expected a RenderError');
}

describe('compileTemplate / render', () => {
  test('renders the reference template', () => {
    expect(compileTemplate(eventTicket).render(eventValues)).toEqual(eventBody);
  });

  test('placeholders lists the declared names once, in order', () => {
    const compiled = compileTemplate(template({ logoText: '${a}' }, ['a', 'b', 'a']));
    expect(compiled.placeholders).toEqual(['a', 'b']);
  });

  test('a whole-value placeholder keeps the value: number, boolean, array, object (copied)', () => {
    const locations = [{ latitude: 1, longitude: 2 }];
    const compiled = compileTemplate(
      template(
        {
          generic: { primaryFields: [{ key: 'price', value: '${price}', currencyCode: 'EUR' }] },
          voided: '${voided}',
          locations: '${locations}',
          userInfo: '${info}',
        },
        ['price', 'voided', 'locations', 'info'],
      ),
    );
    const body = compiled.render({ price: 12.5, voided: false, locations, info: { tier: 'gold', n: [1, null] } }) as Record<string, unknown>;
    expect(body['generic']).toEqual({ primaryFields: [{ key: 'price', value: 12.5, currencyCode: 'EUR' }] });
    expect(body['voided']).toBe(false);
    expect(body['locations']).toEqual(locations);
    expect(body['locations']).not.toBe(locations);
    expect(body['userInfo']).toEqual({ tier: 'gold', n: [1, null] });
  });

  test('inside text, numbers and booleans become their String()', () => {
    const compiled = compileTemplate(template({ logoText: '${n} / ${b} / ${s}' }, ['n', 'b', 's']));
    expect(compiled.render({ n: 1e21, b: true, s: '' })).toMatchObject({ logoText: '1e+21 / true / ' });
  });

  test('values are never re-expanded', () => {
    const compiled = compileTemplate(template({ logoText: '${a}-${b}', labelColor: '${a}' }, ['a', 'b']));
    expect(compiled.render({ a: '${b}', b: '${a}' })).toMatchObject({ logoText: '${b}-${a}', labelColor: '${b}' });
  });

  test('all missing values are reported at once, located at their first use', () => {
    const issues = renderError(() => compileTemplate(eventTicket).render({ eventName: 'x' } as never));
    expect(issues.map((issue) => [issue.code, issue.placeholder, issue.path])).toEqual([
      ['missing-value', 'barcode', '/description/barcode/message'],
      ['missing-value', 'venue', '/description/generic/secondaryFields/0/value'],
      ['missing-value', 'date', '/description/generic/secondaryFields/1/value'],
      ['missing-value', 'seat', '/description/generic/auxiliaryFields/0/value'],
      ['missing-value', 'holder', '/description/generic/auxiliaryFields/1/value'],
    ]);
    expect(issues[3]?.offset).toBe(4);
  });

  test('a declared name that is never used needs no value', () => {
    const compiled = compileTemplate(template({ logoText: '${a}' }, ['a', 'unused']));
    expect(compiled.render({ a: 'x' })).toMatchObject({ logoText: 'x' });
  });

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['a function', () => 'x'],
    ['a symbol', Symbol('x')],
    ['a bigint', 10n],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('%s is invalid-value everywhere', (_, value) => {
    for (const text of ['${a}', 'x ${a}']) {
      const issues = renderError(() => compileTemplate(template({ logoText: text }, ['a'])).render({ a: value }));
      expect(issues).toEqual([expect.objectContaining({ code: 'invalid-value', placeholder: 'a', path: '/description/logoText' })]);
    }
  });

  test('arrays and objects cannot stand inside text', () => {
    const compiled = compileTemplate(template({ logoText: 'x ${a}' }, ['a']));
    for (const value of [[1], { b: 1 }]) {
      expect(renderError(() => compiled.render({ a: value })).map((issue) => issue.code)).toEqual(['invalid-value']);
    }
  });

  test('non-JSON inside a whole value is invalid-value', () => {
    const compiled = compileTemplate(template({ userInfo: '${a}' }, ['a']));
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const value of [{ d: new Date(0) }, [undefined], { n: Number.NaN }, cyclic, new Map()]) {
      expect(renderError(() => compiled.render({ a: value })).map((issue) => issue.code)).toEqual(['invalid-value']);
    }
  });

  test('own properties only: the prototype chain is never read', () => {
    const compiled = compileTemplate(template({ logoText: '${toString}', labelColor: '${constructor}' }, ['toString', 'constructor']));
    expect(renderError(() => compiled.render({} as never)).map((issue) => issue.code)).toEqual(['missing-value', 'missing-value']);
    const inherited = Object.create({ toString: 'inherited', constructor: 'inherited' }) as Record<string, string>;
    expect(renderError(() => compiled.render(inherited as never))).toHaveLength(2);
    expect(compiled.render({ toString: 'a', constructor: 'b' })).toMatchObject({ logoText: 'a', labelColor: 'b' });
  });

  test('__proto__ as a name and as a key comes out as an own property', () => {
    const description = JSON.parse('{"generic":{},"userInfo":{"__proto__":"${__proto__}","k":"${v}"}}') as Record<string, unknown>;
    const compiled = compileTemplate(template(description, ['__proto__', 'v']));
    const values = JSON.parse('{"__proto__":{"polluted":true},"v":{"__proto__":{"x":1}}}') as Record<string, unknown>;
    const body = compiled.render(values) as { userInfo: Record<string, unknown> };
    expect(Object.getPrototypeOf(body.userInfo)).toBe(Object.prototype);
    expect(Object.hasOwn(body.userInfo, '__proto__')).toBe(true);
    expect(JSON.stringify(body.userInfo)).toBe('{"__proto__":{"polluted":true},"k":{"__proto__":{"x":1}}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('output keys keep the template order', () => {
    const compiled = compileTemplate(template({ z: 1, a: '${a}', m: { y: 1, b: 2 } }, ['a']));
    const body = compiled.render({ a: 'x' }) as Record<string, Record<string, unknown>>;
    expect(Object.keys(body)).toEqual(['generic', 'z', 'a', 'm']);
    expect(Object.keys(body['m'] ?? {})).toEqual(['y', 'b']);
  });

  test('values for undeclared names are ignored, or unknown-value when strict', () => {
    const plain = compileTemplate(template({ logoText: '${a}' }, ['a']));
    expect(plain.render({ a: 'x', extra: 1 } as never)).toMatchObject({ logoText: 'x' });
    const strict = compileTemplate(template({ logoText: '${a}' }, ['a']), { strict: true });
    expect(renderError(() => strict.render({ a: 'x', extra: 1 } as never))).toEqual([expect.objectContaining({ code: 'unknown-value', placeholder: 'extra' })]);
  });

  test('values that are not an object are invalid-value at the root', () => {
    for (const values of [null, undefined, 'x', 3]) {
      expect(renderError(() => compileTemplate(eventTicket).render(values as never))).toEqual([expect.objectContaining({ code: 'invalid-value', path: '' })]);
    }
  });

  test('neither template nor values are changed, and renders share nothing', () => {
    const t = clone(eventTicket);
    const v = { ...eventValues };
    const before = JSON.stringify([t, v]);
    const compiled = compileTemplate(t);
    const first = compiled.render(v) as { generic: { primaryFields: { value: string }[] } };
    (first.generic.primaryFields[0] as { value: string }).value = 'changed';
    const second = compiled.render(v) as { generic: { primaryFields: { value: string }[] } };
    expect(second.generic.primaryFields[0]?.value).toBe('Concert');
    expect(JSON.stringify([t, v])).toBe(before);
  });

  test('a template with errors throws TemplateError with the issues', () => {
    const bad = template({ logoText: '${b}' }, ['a']);
    expect(() => compileTemplate(bad)).toThrow(TemplateError);
    try {
      compileTemplate(bad);
    } catch (error) {
      expect((error as TemplateError).issues.map((issue) => issue.code)).toEqual(['undeclared-placeholder']);
      expect((error as TemplateError).message).toContain('/description/logoText');
    }
  });

  test('renderTemplate compiles once per template object', () => {
    const t = clone(eventTicket);
    expect(renderTemplate(t, eventValues)).toEqual(compileTemplate(eventTicket).render(eventValues));
    expect(renderTemplate(t, { ...eventValues, eventName: 'Opera' })).toMatchObject({ logoText: 'Opera' });
    expect(() => renderTemplate(t, { ...eventValues, x: 1 } as never, { strict: true })).toThrow(RenderError);
  });
});

describe('values are read once: what is checked is what is rendered', () => {
  for (const codegen of [true, false]) {
    test(`a nested getter is read once and its checked value is the one rendered (codegen: ${codegen})`, () => {
      let reads = 0;
      const locations = [
        {
          get latitude(): unknown {
            reads++;
            // Valid when checked; a function if it were read again to copy.
            return reads === 1 ? 48.85 : () => 'injected';
          },
          longitude: 2.35,
        },
      ];
      const compiled = compileTemplate(template({ locations: '${locations}' }, ['locations']), { codegen });
      const body = compiled.render({ locations }) as unknown as { locations: { latitude: unknown }[] };
      expect(body.locations).toEqual([{ latitude: 48.85, longitude: 2.35 }]);
      expect(reads).toBe(1);
      // The rendered object is a plain copy, not the caller's (no getter left in it).
      expect(Object.getOwnPropertyDescriptor(body.locations[0], 'latitude')?.get).toBeUndefined();
    });
  }

  test('a problem found while copying is reported with its path inside the value', () => {
    const issues = renderError(() => renderTemplate(template({ userInfo: '${info}' }, ['info']), { info: { a: [1, Number.NaN] } }));
    expect(issues).toEqual([
      expect.objectContaining({ code: 'invalid-value', placeholder: 'info', message: 'Value of "info": NaN is not a finite number at /a/1' }),
    ]);
  });
});
