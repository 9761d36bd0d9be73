// Bundles the library from src/ with rolldown (installed with Vite): once
// readable, to run the benchmarks on exactly the code in the tree, and once
// minified, to measure what a user ships.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cache = fileURLToPath(new URL('../.cache/', import.meta.url));

/** The package's entries that run in every runtime (package.json `exports`; apns and server are Node's), those present in the tree. */
export const ENTRIES = Object.fromEntries(
  Object.entries({
    index: 'src/index.ts',
    webhooks: 'src/webhooks/index.ts',
    http: 'src/http/index.ts',
    pkpass: 'src/pkpass/index.ts',
    wallet: 'src/wallet/index.ts',
  })
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
async function gzippedSize(input, external, rewrite = (code) => code, treeshake = undefined) {
  const bundle = await rolldown({
    input,
    resolve,
    platform: 'neutral',
    logLevel: 'silent',
    ...(external === undefined ? {} : { external }),
    ...(treeshake === undefined ? {} : { treeshake }),
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
 * What a bundler ships for `import { name } from '<entry>'` alone: the entry
 * bundled with only that export kept (tree-shaken), minified, gzipped (level
 * 9), everything it pulls in included (generated validators too). `undefined`
 * when the entry does not exist or does not export `name` yet.
 *
 * @param {string} entry path under the repository root, e.g. 'src/index.ts'
 * @param {string} name
 * @returns {Promise<number | undefined>}
 */
export async function importSize(entry, name) {
  const file = `${root}${entry}`;
  if (!existsSync(file) || !new RegExp(`\\b${name}\\b`).test(readFileSync(file, 'utf8'))) return undefined;
  const dir = fileURLToPath(new URL('../.cache/imports/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const source = `${dir}${name}.js`;
  writeFileSync(source, `export { ${name} } from ${JSON.stringify(file)};\n`);
  try {
    // The package declares "sideEffects": false (root package.json), which a
    // user's bundler reads from the published files; src/package.json does not
    // repeat it, so say it here: modules whose exports go unused are dropped.
    return await gzippedSize({ [name]: source }, undefined, undefined, { moduleSideEffects: false });
  } catch {
    return undefined;
  }
}

/**
 * The service benchmarks run passmint from its sources for Node: bundles
 * `inputs` (entry name → source file) into `dir` as `<name>.js` ES modules,
 * with Node's conditions (`#pkcrypto`, `#hmac` → node:crypto) and the optional
 * database drivers left as imports.
 *
 * @param {Record<string, string>} inputs
 * @param {string} dir
 */
export async function bundleForNode(inputs, dir) {
  mkdirSync(dir, { recursive: true });
  const bundle = await rolldown({
    input: inputs,
    resolve: { extensionAlias: resolve.extensionAlias, conditionNames: ['node', 'import', 'default'] },
    platform: 'node',
    external: [/^pg(\/|$)/, /^@electric-sql\//],
    logLevel: 'silent',
  });
  await bundle.write({ dir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
  await bundle.close();
}
