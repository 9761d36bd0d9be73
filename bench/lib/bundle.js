// Bundles the library from src/ with rolldown (installed with Vite): once
// readable, to run the benchmarks on exactly the code in the tree, and once
// minified, to measure what a user ships.

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cache = fileURLToPath(new URL('../.cache/', import.meta.url));

/** The package's entries (package.json `exports`), those present in the tree. */
export const ENTRIES = Object.fromEntries(
  Object.entries({ index: 'src/index.ts', webhooks: 'src/webhooks/index.ts', http: 'src/http/index.ts' })
    .map(([name, path]) => [name, `${root}${path}`])
    .filter(([, path]) => existsSync(path)),
);

// Sources import `./x.js` for `./x.ts` (NodeNext); resolve them as tsc does.
// Conditions of a browser or edge worker (`#hmac` → Web Crypto): what most users ship.
const resolve = { extensionAlias: { '.js': ['.ts', '.js'] }, conditionNames: ['import', 'default'] };
const isValidators = (id) => /[\\/]schema[\\/]validators(\.js)?$/.test(id);

/**
 * Builds the core entry into bench/.cache and returns its file URL.
 *
 * @returns {Promise<string>}
 */
export async function bundleCore() {
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  const bundle = await rolldown({ input: { index: ENTRIES.index }, resolve, platform: 'neutral', logLevel: 'silent' });
  await bundle.write({ dir: cache, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
  await bundle.close();
  return pathToFileURL(`${cache}index.js`).href;
}

/**
 * Minified, gzipped bytes (level 9) of what `input` pulls in.
 *
 * @param {Record<string, string>} input
 * @param {(id: string) => boolean} [external]
 */
async function gzippedSize(input, external, rewrite = (code) => code) {
  const bundle = await rolldown({
    input,
    resolve,
    platform: 'neutral',
    logLevel: 'silent',
    ...(external === undefined ? {} : { external }),
  });
  const { output } = await bundle.generate({ format: 'esm', minify: true });
  await bundle.close();
  let bytes = 0;
  for (const chunk of output) {
    if (chunk.type === 'chunk') bytes += gzipSync(rewrite(chunk.code), { level: 9 }).length;
  }
  return bytes;
}

/**
 * The two sizes issue 6 sets targets for: the core entry without the
 * generated validators (they are external), and all entries with everything
 * they import (validators and ajv's runtime helpers included), shared chunks
 * counted once.
 */
export async function librarySizes() {
  const core = await gzippedSize({ index: ENTRIES.index }, isValidators);
  const whole = await gzippedSize(ENTRIES);
  return { core, whole, entries: Object.keys(ENTRIES) };
}

/**
 * What each part adds to the core size: the core measured again with the
 * part left out (external), for the report when the core is over budget.
 *
 * @param {Record<string, RegExp>} parts
 */
export async function coreBreakdown(parts) {
  const core = await gzippedSize({ index: ENTRIES.index }, isValidators);
  const out = {};
  for (const [name, pattern] of Object.entries(parts)) {
    out[name] = core - (await gzippedSize({ index: ENTRIES.index }, (id) => isValidators(id) || pattern.test(id)));
  }
  // Sentences: every string or template literal of the minified code that holds
  // a space and is longer than 12 characters (issue messages, mostly) made empty.
  const literal = /`(?:[^`\\]|\\.)*`|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
  const blank = (code) => code.replace(literal, (text) => (text.length > 12 && text.includes(' ') ? '""' : text));
  out['every message (string literals with a space, over 12 characters) made ""'] =
    core - (await gzippedSize({ index: ENTRIES.index }, isValidators, blank));
  return out;
}
