import { readFileSync } from 'node:fs';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { generateValidatorsSource } from '../../scripts/validators-source.js';
import { genericPass } from '../pass/passes.js';

const read = (file: string): string => readFileSync(new URL(`../../src/schema/${file}`, import.meta.url), 'utf8');

describe('generated validators', () => {
  const generated = generateValidatorsSource();

  test('src/schema/validators.js is what the schemas compile to now (run `npm run generate`)', () => {
    expect(read('validators.js')).toBe(generated.js);
  });

  test('src/schema/validators.d.ts is what the generator writes now', () => {
    expect(read('validators.d.ts')).toBe(generated.dts);
  });

  test('generating twice gives the same text', () => {
    expect(generateValidatorsSource()).toEqual(generated);
  });

  test('the shipped validators need no eval, no new Function and no import at all', () => {
    const shipped = read('validators.js');
    expect(shipped).not.toMatch(/new\s+Function|\beval\s*\(|\bFunction\s*\(/);
    expect(shipped).not.toMatch(/\brequire\s*\(|^\s*import\b|\bimport\s*\(/m);
    expect(shipped.match(/^export const \w+/gm)).toEqual([
      'export const validatePassSchema',
      'export const validateTemplateSchema',
      'export const validateEventSchema',
    ]);
  });

  test('the validators work where code generation from strings is forbidden (as under a strict CSP)', () => {
    const script = read('validators.js').replace(/^export const (\w+) = /gm, 'var $1 = ');
    const context = createContext({ pass: structuredClone(genericPass) }, { codeGeneration: { strings: false, wasm: false } });
    runInContext(script, context);
    expect(() => runInContext('eval("1")', context)).toThrow(/Code generation from strings disallowed/);
    expect(runInContext('validatePassSchema(pass)', context)).toBe(true);
    expect(runInContext('delete pass.teamIdentifier; validatePassSchema(pass)', context)).toBe(false);
    expect(runInContext('validatePassSchema.errors.map((error) => error.params.missingProperty)', context)).toEqual(['teamIdentifier']);
  });

  test('the library source needs no eval either', () => {
    for (const file of ['check.ts']) expect(read(file)).not.toMatch(/new\s+Function|\beval\s*\(/);
  });
});
