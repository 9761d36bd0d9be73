import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

// design.md, principles 1 and 2, checked over every source file.
const src = fileURLToPath(new URL('../src/', import.meta.url));
const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(ts|js)$/.test(file));
const read = (file: string): string => readFileSync(src + file, 'utf8');

describe('the library stays portable', () => {
  test('outside the Node-only modules, only the node-condition implementations import a node: module', () => {
    // passmint/apns, passmint/server and the CLI are Node's by design (design.md, principle 1).
    const nodeOnly = /^(apns|server|cli)\//;
    const withNode = files
      .filter((file) => !nodeOnly.test(file.replaceAll('\\', '/')))
      .filter((file) => /from ['"]node:|import\(['"]node:|require\(/.test(read(file)))
      .sort();
    expect(withNode).toEqual(['http/sha256/node.ts', 'pkpass/crypto/node.ts', 'webhooks/guarded-fetch/node.ts', 'webhooks/hmac/node.ts']);
  });

  test('only the code generator makes functions from strings, and nothing calls eval', () => {
    const generating = files.filter((file) => /\bFunction\b/.test(read(file).replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')));
    expect(generating).toEqual(['template/codegen.ts']);
    expect(files.filter((file) => /\beval\(/.test(read(file)))).toEqual([]);
  });

  test('src/index.ts re-exports by name, never export *', () => {
    for (const entry of ['index.ts', 'webhooks/index.ts', 'http/index.ts', 'pkpass/index.ts', 'wallet/index.ts', 'apns/index.ts', 'google/index.ts'])
      expect(read(entry)).not.toMatch(/export \*/);
  });
});
