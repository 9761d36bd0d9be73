import { readFileSync } from 'node:fs';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { generatedFiles, generateValidatorsSource } from '../../scripts/validators-source.js';
import { genericPass } from '../pass/passes.js';

const read = (file: string): string => readFileSync(new URL(`../../src/schema/${file}`, import.meta.url), 'utf8');
const shippedModules = generatedFiles.filter((file) => file.endsWith('.js'));

// A module's text as a classic script: its exports become globals of the context.
const asScript = (file: string): string => read(file).replace(/^export const (\w+) = /gm, 'var $1 = ');

describe('generated validators', () => {
  const generated = generateValidatorsSource();

  test('the generator writes the validator modules and their types', () => {
    expect(Object.keys(generated)).toEqual(['validators.js', 'validators.d.ts', 'event-validator.js', 'event-validator.d.ts']);
    expect(generatedFiles).toEqual(Object.keys(generated));
  });

  test.each(generatedFiles)('src/schema/%s is what the schemas compile to now (run `npm run generate`)', (file) => {
    expect(read(file)).toBe(generated[file]);
  });

  test('generating twice gives the same text', () => {
    expect(generateValidatorsSource()).toEqual(generated);
  });

  test.each(shippedModules)('%s needs no eval, no new Function and no import at all', (file) => {
    const shipped = read(file);
    expect(shipped).not.toMatch(/new\s+Function|\beval\s*\(|\bFunction\s*\(/);
    expect(shipped).not.toMatch(/\brequire\s*\(|^\s*import\b|\bimport\s*\(/m);
  });

  test('each validator is exported from one module', () => {
    expect(shippedModules.map((file) => read(file).match(/^export const \w+/gm))).toEqual([
      ['export const validatePassSchema', 'export const validateTemplateSchema'],
      ['export const validateEventSchema'],
    ]);
  });

  test('the validators work where code generation from strings is forbidden (as under a strict CSP)', () => {
    // One context per module: each is a module scope of its own.
    const run = (file: string, globals: object): ((code: string) => unknown) => {
      const context = createContext(globals, { codeGeneration: { strings: false, wasm: false } });
      runInContext(asScript(file), context);
      expect(() => runInContext('eval("1")', context)).toThrow(/Code generation from strings disallowed/);
      return (code) => runInContext(code, context);
    };
    const passes = run('validators.js', { pass: structuredClone(genericPass) });
    expect(passes('validatePassSchema(pass)')).toBe(true);
    expect(passes('delete pass.teamIdentifier; validatePassSchema(pass)')).toBe(false);
    expect(passes('validatePassSchema.errors.map((error) => error.params.missingProperty)')).toEqual(['teamIdentifier']);
    const event = { id: '9f1c7d5e-3b0a-4c7e-9a51-2d7f8e6b4c10', type: 'webhook.verify', created: '2025-03-01T12:00:00Z', data: { token: 't' } };
    const events = run('event-validator.js', { event });
    expect(events('validateEventSchema(event)')).toBe(true);
    expect(events('event.data = {}; validateEventSchema(event)')).toBe(false);
    expect(events('validateEventSchema.errors[0].params.missingProperty')).toBe('token');
  });

  test('the library source needs no eval either', () => {
    for (const file of ['check.ts']) expect(read(file)).not.toMatch(/new\s+Function|\beval\s*\(/);
  });
});
