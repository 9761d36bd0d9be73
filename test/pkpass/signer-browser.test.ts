// The signer and the checker in Chromium, on the browser's own Web Crypto:
// the signature made there is the one Node makes, byte for byte, and openssl
// verifies it (design.md, principle 1: the same results in every runtime).
import { resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM, chromiumAvailable } from '../e2e/browser.js';
import { makePki, openssl, opensslVerify, PASSPHRASE, signer } from './pki.js';

const manifest = '{"icon.png":"2a4a1d5e0d7d1b0c6bd4e5f7d0a1f0b6c3a2e1d9","pass.json":"5f1e8b7a4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f"}';
const signingTime = '2026-03-04T05:06:07.000Z';

async function bundle(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: { signer: resolve('src/pkpass/signer.ts'), check: resolve('src/pkpass/signature-check.ts') }, formats: ['es'] },
      rollupOptions: { output: { entryFileNames: '[name].js', chunkFileNames: '[name].js' } },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []));
  return JSON.stringify(Object.fromEntries(chunks.map((chunk) => [`/${chunk.fileName}`, 'code' in chunk ? chunk.code : ''])));
}

interface BrowserResult {
  readonly error?: string;
  readonly signatures?: Record<string, string>;
  readonly issues?: string[];
  readonly tampered?: string[];
  readonly identifiers?: [string, string];
  readonly aes192?: string;
  readonly wrongPassphrase?: string;
  readonly nodeModule?: boolean;
}

describe.skipIf(!chromiumAvailable)('the signer in Chromium (Web Crypto)', () => {
  let browser: Browser;
  let files: Record<string, string> = {};
  beforeAll(async () => {
    files = JSON.parse(await bundle()) as Record<string, string>;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: 30_000,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('signs byte-identically to Node, checks its own and refuses a tampered manifest; decrypts PBES2 keys', async () => {
    const pki = await makePki();
    const aes192Pem = await openssl(['pkcs8', '-topk8', '-in', pki.keyPath, '-v2', 'aes-192-cbc', '-passout', `pass:${PASSPHRASE}`]);
    const input = {
      certificate: pki.certPem,
      wwdr: pki.wwdrPem,
      key: pki.keyPem,
      pkcs1: pki.keyPkcs1Pem,
      encrypted: pki.encryptedKeyPem,
      aes192: aes192Pem,
      root: pki.rootPem,
    };
    const run = `
      import { createPassSigner } from '/signer.js';
      import { checkSignature } from '/check.js';
      const input = ${JSON.stringify(input)};
      const manifest = new TextEncoder().encode(${JSON.stringify(manifest)});
      const signingTime = new Date(${JSON.stringify(signingTime)});
      const base64 = (bytes) => btoa(String.fromCharCode(...bytes));
      const codes = (error) => error && error.issues ? error.issues.map((issue) => issue.code + ' ' + issue.message).join('; ') : String(error);
      try {
        const options = { certificate: input.certificate, wwdr: input.wwdr, at: signingTime };
        const signers = {
          pkcs8: await createPassSigner({ ...options, privateKey: input.key }),
          pkcs1: await createPassSigner({ ...options, privateKey: input.pkcs1 }),
          encrypted: await createPassSigner({ ...options, privateKey: input.encrypted, passphrase: '${PASSPHRASE}' }),
        };
        const signatures = {};
        for (const [name, made] of Object.entries(signers)) {
          for (const digest of ['sha256', 'sha1']) signatures[name + '-' + digest] = base64(await made.sign(manifest, { signingTime, digest }));
        }
        const own = await signers.pkcs8.sign(manifest, { signingTime });
        const check = await checkSignature(own, manifest, { roots: [input.root], at: signingTime });
        const changed = manifest.slice();
        changed[3] ^= 1;
        const tampered = await checkSignature(own, changed, { at: signingTime });
        let aes192 = 'accepted';
        try { await createPassSigner({ ...options, privateKey: input.aes192, passphrase: '${PASSPHRASE}' }); } catch (error) { aes192 = codes(error); }
        let wrongPassphrase = 'accepted';
        try { await createPassSigner({ ...options, privateKey: input.encrypted, passphrase: 'nope' }); } catch (error) { wrongPassphrase = codes(error); }
        window.__result = {
          signatures,
          issues: check.issues.map((issue) => issue.code),
          tampered: tampered.issues.map((issue) => issue.code),
          identifiers: [signers.pkcs8.passTypeIdentifier, signers.pkcs8.teamIdentifier],
          aes192,
          wrongPassphrase,
          nodeModule: typeof process !== 'undefined',
        };
      } catch (error) {
        window.__result = { error: String(error && error.stack || error) };
      }
    `;
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(String(error)));
    const served: Record<string, [string, string]> = {
      '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>signer</title><script type="module" src="/run.js"></script>'],
      '/run.js': ['text/javascript', run],
      ...Object.fromEntries(Object.entries(files).map(([path, code]) => [path, ['text/javascript', code] as [string, string]])),
    };
    await tab.route('http://127.0.0.1:9/**', async (route) => {
      const file = served[new URL(route.request().url()).pathname];
      if (file === undefined) return route.fulfill({ status: 404 });
      return route.fulfill({ status: 200, contentType: file[0], body: file[1] });
    });
    // 127.0.0.1 is a secure context: crypto.subtle is there.
    await tab.goto('http://127.0.0.1:9/');
    await tab.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, undefined, { timeout: 20_000 });
    const result = (await tab.evaluate(() => (window as unknown as { __result: BrowserResult }).__result)) as BrowserResult;
    expect(errors).toEqual([]);
    expect(result.error).toBeUndefined();
    expect(result.nodeModule).toBe(false);
    expect(result.identifiers).toEqual(['pass.com.example.test', 'A93A5CM278']);
    expect(result.issues).toEqual([]);
    expect(result.tampered).toEqual(['digest-mismatch']);
    expect(result.wrongPassphrase).toMatch(/^wrong-passphrase /);
    // Chromium's Web Crypto has no 192-bit AES: the key is refused with the command that converts it.
    expect(result.aes192).toMatch(/^invalid-key .*AES-192.*openssl pkcs8 -topk8 -v2 aes-256-cbc/);

    const nodeSigner = await signer();
    for (const digest of ['sha256', 'sha1'] as const) {
      const expected = Buffer.from(await nodeSigner.sign(new TextEncoder().encode(manifest), { signingTime: new Date(signingTime), digest }));
      for (const form of ['pkcs8', 'pkcs1', 'encrypted']) {
        const fromBrowser = Buffer.from(result.signatures?.[`${form}-${digest}`] ?? '', 'base64');
        expect(fromBrowser.equals(expected), `${form} ${digest}`).toBe(true);
      }
      expect(await opensslVerify(new Uint8Array(expected), new TextEncoder().encode(manifest))).toEqual({ code: 0, stderr: '' });
    }
  });
});
