// Issue 11: hostile input costs linear time. Each row times one check on an
// input and on ten times that input; 10× the input may cost at most 12× the
// time. The inputs are the shapes that were quadratic (unknown keys sorted into
// document order with indexOf, edit distance over whole long names, every
// undeclared name compared with every declared one) and their neighbours.

import { median, timeSlow } from './lib/measure.js';

/** A generic pass with `count` unknown top-level keys (80,000 took 11 s before the fix). */
function unknownKeys(count) {
  const pass = {
    formatVersion: 1,
    passTypeIdentifier: 'pass.com.example.hostile',
    serialNumber: 'hostile',
    teamIdentifier: 'A93A5CM278',
    organizationName: 'Example',
    description: 'Hostile',
    generic: { primaryFields: [{ key: 'a', value: 'b' }] },
  };
  for (let index = 0; index < count; index++) pass[`unknownKey${index}`] = index;
  return pass;
}

/** A pass whose `count` back fields all share one key and a bad date style: two issues each. */
function manyPassIssues(count) {
  const backFields = [];
  for (let index = 0; index < count; index++) backFields.push({ key: 'same', value: `v${index}`, dateStyle: 'PKDateStyleSoon', timeStyle: 'PKDateStyleShort' });
  return { ...unknownKeys(0), generic: { backFields } };
}

function template(description, placeholder) {
  return { id: 1, name: 'Hostile', formatVersion: 1, passType: 'pass.com.example.hostile', description, placeholder };
}

/** Ten undeclared names of `length` characters, each one edit from a declared one: the suggestion search runs over every character. */
function longNames(length) {
  const declared = [];
  const primaryFields = [];
  for (let index = 0; index < 10; index++) {
    const name = String.fromCharCode(97 + index).repeat(length);
    declared.push(name);
    primaryFields.push({ key: `k${index}`, value: `\${${name.slice(1)}z}` });
  }
  return template({ generic: { primaryFields } }, declared);
}

/** `count` undeclared names and `count` declared ones (none used): every pair was compared before the fix. */
function manyUndeclared(count) {
  const backFields = [];
  const declared = [];
  for (let index = 0; index < count; index++) {
    backFields.push({ key: `f${index}`, value: `\${used${index.toString(36)}}` });
    declared.push(`decl${index.toString(36)}`);
  }
  return template({ generic: { backFields } }, declared);
}

/** A JSON text of one object with `count` members all named "a": a duplicate-key issue each. */
function duplicateKeys(count) {
  return `{${Array.from({ length: count }, (_, index) => `"a":${index}`).join(',\n')}}`;
}

/**
 * @param {{ validatePass: Function, validateTemplate: Function, parseJsonText: Function }} lib
 * @returns {{ name: string, ours: number, baseline: number, ratio: number }[]}
 */
export function benchHostile(lib) {
  const cases = [
    ['validatePass, unknown top-level keys: 8,000 → 80,000', unknownKeys(8000), unknownKeys(80000), (pass) => lib.validatePass(pass)],
    ['validatePass, issues (duplicate keys, bad styles): 2,000 → 20,000 fields', manyPassIssues(2000), manyPassIssues(20000), (pass) => lib.validatePass(pass)],
    ['validateTemplate, "did you mean" on ten long names: 800 → 8,000 characters', longNames(800), longNames(8000), (t) => lib.validateTemplate(t)],
    ['validateTemplate, undeclared × declared names: 1,000 → 10,000 of each', manyUndeclared(1000), manyUndeclared(10000), (t) => lib.validateTemplate(t)],
    ['parseJsonText, duplicate keys: 4,000 → 40,000 members', duplicateKeys(4000), duplicateKeys(40000), (text) => lib.parseJsonText(text)],
  ];
  const rows = [];
  for (const [name, small, large, run] of cases) {
    // Paired rounds: each round times both sizes, its ratio is taken inside the
    // round, and the row reports the median round (a shared machine's noise
    // then hits both sides of a ratio alike).
    const a = [];
    const b = [];
    const ratios = [];
    for (let round = 0; round < 7; round++) {
      a.push(timeSlow(() => run(small), { repeat: 1, minMs: 30 }).median);
      b.push(timeSlow(() => run(large), { repeat: 1, minMs: 150 }).median);
      ratios.push((b.at(-1) ?? 0) / (a.at(-1) ?? 1));
    }
    rows.push({ name: `hostile: ${name}`, ours: median(b), baseline: median(a), ratio: median(ratios) });
  }
  return rows;
}
