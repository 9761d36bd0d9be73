import fc from 'fast-check';

/** Runs per property: a few thousand in CI, fewer on a developer machine unless asked. */
export const RUNS: number = Number(process.env['PASSMINT_RUNS'] ?? (process.env['CI'] ? 3000 : 1000));

/** A placeholder name that follows the notation rules. */
export const placeholderName: fc.Arbitrary<string> = fc
  .string({ minLength: 1, maxLength: 12, unit: 'grapheme' })
  .filter((name) => !/[${}\p{Cc}]/u.test(name) && name.trim() === name && name.length > 0);

/** Text made mostly of the notation's characters, valid and broken placeholders mixed. */
export const notationText: fc.Arbitrary<string> = fc
  .array(fc.constantFrom('$', '{', '}', '${', '${a}', '${ b}', '${}', 'x', ' ', '\n', 'é', '${name}', '$$'), { maxLength: 40 })
  .map((parts) => parts.join(''));
