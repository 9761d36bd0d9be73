import { readFileSync } from 'node:fs';
import { createContext, runInContext } from 'node:vm';
import { rolldown } from 'rolldown';
import { describe, expect, test } from 'vitest';
import { generatedFiles, generateValidatorsSource } from '../../scripts/validators-source.js';
import { genericPass } from '../pass/passes.js';

const read = (file: string): string => readFileSync(new URL(`../../src/schema/${file}`, import.meta.url), 'utf8');

describe('generated validators', () => {
  const generated = generateValidatorsSource();

  test('the generator writes validators.js and its types', () => {
    expect(Object.keys(generated)).toEqual(['validators.js', 'validators.d.ts']);
    expect(generatedFiles).toEqual(Object.keys(generated));
  });

  test.each(generatedFiles)('src/schema/%s is what the schemas compile to now (run `npm run generate`)', (file) => {
    expect(read(file)).toBe(generated[file]);
  });

  test('generating twice gives the same text', () => {
    expect(generateValidatorsSource()).toEqual(generated);
  });

  test('the shipped validators need no eval, no new Function and no import at all', () => {
    const shipped = read('validators.js');
    expect(shipped).not.toMatch(/new\s+Function|\beval\s*\(|\bFunction\s*\(/);
    expect(shipped).not.toMatch(/\brequire\s*\(|^\s*import\b|\bimport\s*\(/m);
    expect(shipped.match(/^export const \w+ = \/\* @__PURE__ \*\/ \(\(\) => \{$/gm)?.map((line) => line.split(' ')[2])).toEqual([
      'validatePassSchema',
      'validateTemplateSchema',
      'validateEventSchema',
    ]);
  });

  test('the validators work where code generation from strings is forbidden (as under a strict CSP)', () => {
    const script = read('validators.js').replace(/^export const (\w+) = /gm, 'var $1 = ');
    const event = { id: '9f1c7d5e-3b0a-4c7e-9a51-2d7f8e6b4c10', type: 'webhook.verify', created: '2025-03-01T12:00:00Z', data: { token: 't' } };
    const context = createContext({ pass: structuredClone(genericPass), event }, { codeGeneration: { strings: false, wasm: false } });
    runInContext(script, context);
    expect(() => runInContext('eval("1")', context)).toThrow(/Code generation from strings disallowed/);
    expect(runInContext('validatePassSchema(pass)', context)).toBe(true);
    expect(runInContext('delete pass.teamIdentifier; validatePassSchema(pass)', context)).toBe(false);
    expect(runInContext('validatePassSchema.errors.map((error) => error.params.missingProperty)', context)).toEqual(['teamIdentifier']);
    expect(runInContext('validateEventSchema(event)', context)).toBe(true);
    expect(runInContext('event.data = {}; validateEventSchema(event)', context)).toBe(false);
    expect(runInContext('validateEventSchema.errors.map((error) => error.keyword)', context)).toEqual(['required', 'if']);
    expect(runInContext('validateEventSchema.errors[0].params.missingProperty', context)).toBe('token');
  });

  test('a bundler keeps only the validators an entry uses (passmint/webhooks needs only the event one)', async () => {
    const bundle = await rolldown({
      input: 'entry',
      platform: 'neutral',
      logLevel: 'silent',
      plugins: [
        {
          name: 'entry',
          resolveId: (id) => (id === 'entry' ? id : id === 'validators' ? new URL('../../src/schema/validators.js', import.meta.url).pathname : null),
          load: (id) => (id === 'entry' ? "export { validateEventSchema } from 'validators';" : null),
        },
      ],
    });
    const { output } = await bundle.generate({ format: 'esm' });
    await bundle.close();
    const [chunk] = output;
    expect(chunk.code).toContain('webhook.verify');
    expect(chunk.code).not.toContain('PKBarcodeFormatQR');
    expect(chunk.code).not.toContain('placeholder');
  });

  test('the library source needs no eval either', () => {
    for (const file of ['check.ts']) expect(read(file)).not.toMatch(/new\s+Function|\beval\s*\(/);
  });
});
