import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): unknown => JSON.parse(readFileSync(root + path, 'utf8'));
type Conditions = { readonly [condition: string]: string };

describe('#hmac and #guarded-fetch selection', () => {
  // The published package resolves #hmac from the root package.json (dist/);
  // tsc, Vitest and Vite-on-src resolve it from src/package.json.
  // Both maps must name the same modules.
  type Imports = { imports: { readonly [name: string]: Conditions } };
  test.each(['#hmac', '#guarded-fetch'])('%s: the published map and the source map name the same modules, and those exist', (name) => {
    const published = (read('package.json') as Imports).imports[name] ?? {};
    const source = (read('src/package.json') as Imports).imports[name] ?? {};
    expect(Object.keys(published)).toEqual(['types', 'node', 'default']);
    expect(Object.keys(source)).toEqual(['node', 'default']);
    for (const condition of ['node', 'default']) {
      const fromDist = published[condition]?.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts');
      const fromSource = source[condition]?.replace(/^\.\//, './src/').replace(/\.js$/, '.ts');
      expect(fromDist).toBe(fromSource);
      expect(existsSync(root + String(fromSource))).toBe(true);
    }
    expect(published['types']).toBe(published['default']?.replace(/\.js$/, '.d.ts'));
  });

  test('only the node implementations (of #hmac and #guarded-fetch) import a node: module', () => {
    const files = readdirSync(`${root}src/webhooks`, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const withNode = files.filter((file) => /from 'node:/.test(readFileSync(`${root}src/webhooks/${file}`, 'utf8')));
    expect(withNode.map((file) => file.replaceAll('\\', '/')).sort()).toEqual(['guarded-fetch/node.ts', 'hmac/node.ts']);
  });

  test('a browser bundle built by Vite from the sources uses Web Crypto and no node:crypto', async () => {
    const output = await build({
      root,
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        lib: { entry: `${root}src/webhooks/index.ts`, formats: ['es'], fileName: 'webhooks' },
      },
    });
    const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []));
    const code = chunks.map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n');
    expect(code).toContain('crypto.subtle.sign');
    expect(code).not.toContain('node:crypto');
    expect(code).not.toContain('createHmac');
    // …and the global fetch, not node:http, for deliveries.
    expect(code).not.toMatch(/["']node:(http|https|dns|stream)["']/);
    expect(code).toContain('globalThis.fetch(url.href');
  });
});
