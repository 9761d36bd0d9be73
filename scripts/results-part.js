// Measurements made outside `npm run bench` (the playground's build sizes, its
// keystroke latency) are kept in bench/results.json too, under `playground`,
// so the docs show them through figures blocks like every other figure.
//
// Written only when asked: PASSMINT_WRITE_FIGURES=1 (`npm run figures:playground`),
// so an ordinary test run or build changes no file.

import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeFigures } from './docs-figures.js';

const resultsPath = fileURLToPath(new URL('../bench/results.json', import.meta.url));

/** Whether this run was asked to write its figures. */
export const writeRequested = process.env.PASSMINT_WRITE_FIGURES === '1';

/**
 * `results` with `playground[part]` set to `value`; every other part and key as it was.
 *
 * @param {object} results
 * @param {'bundle' | 'latency'} part
 * @param {object} value
 * @returns {object}
 */
export function withPlaygroundPart(results, part, value) {
  return { ...results, playground: { ...results.playground, [part]: value } };
}

/**
 * Stores `value` as `playground[part]` of bench/results.json — read, modify,
 * write (through a temporary file renamed over it), so every other part and
 * section stays as it was — then regenerates the docs figures.
 *
 * @param {'bundle' | 'latency'} part
 * @param {object} value
 * @returns {string[]} the docs files rewritten
 */
export function writePlaygroundFigures(part, value) {
  const results = withPlaygroundPart(JSON.parse(readFileSync(resultsPath, 'utf8')), part, value);
  const temporary = `${resultsPath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(temporary, resultsPath);
  return writeFigures();
}
