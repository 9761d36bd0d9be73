import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): unknown => JSON.parse(readFileSync(root + path, 'utf8'));
type Conditions = { readonly [condition: string]: string };

describe('#pkcrypto selection', () => {
  const published = (read('package.json') as { imports: { '#pkcrypto': Conditions } }).imports['#pkcrypto'];
  const source = (read('src/package.json') as { imports: { '#pkcrypto': Conditions } }).imports['#pkcrypto'];

  test('the published map and the source map name the same modules, and those exist', () => {
    expect(Object.keys(published)).toEqual(['types', 'node', 'default']);
    expect(Object.keys(source)).toEqual(['node', 'default']);
    for (const condition of ['node', 'default']) {
      const fromDist = published[condition]?.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts');
      const fromSource = source[condition]?.replace(/^\.\//, './src/').replace(/\.js$/, '.ts');
      expect(fromDist).toBe(fromSource);
      expect(existsSync(root + String(fromSource))).toBe(true);
    }
  });

  test('the signing code imports no node: module; only crypto/node.ts does', () => {
    const mine = ['asn1', 'x509', 'keys', 'cms', 'crypto'];
    const files = mine.flatMap((folder) => readdirSync(`${root}src/pkpass/${folder}`).map((file) => `${folder}/${file}`));
    files.push('pem.ts', 'oids.ts', 'signer.ts', 'signer-error.ts', 'signature-check.ts');
    const withNode = files.filter((file) => /from ['"]node:|\bBuffer\b/.test(readFileSync(`${root}src/pkpass/${file}`, 'utf8')));
    expect(withNode).toEqual(['crypto/node.ts']);
  });

  test('a browser bundle of the signer and the checker, built by Vite from the sources, uses Web Crypto and no node:crypto', async () => {
    const output = await build({
      root,
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        lib: { entry: { signer: `${root}src/pkpass/signer.ts`, check: `${root}src/pkpass/signature-check.ts` }, formats: ['es'] },
      },
    });
    const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []));
    const code = chunks.map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n');
    expect(code).toContain('crypto.subtle.sign');
    expect(code).toContain('crypto.subtle.verify');
    expect(code).toContain('RSASSA-PKCS1-v1_5');
    expect(code).not.toContain('node:crypto');
    expect(code).not.toContain('createPrivateKey');
  });
});
