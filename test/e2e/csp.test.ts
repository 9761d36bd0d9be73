import { createHmac } from 'node:crypto';
import { resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventBody, eventTicket, eventValues } from '../fixtures.js';
import { CHROMIUM, chromiumAvailable } from './browser.js';

// design.md, principle 2: nothing in the shipped library needs eval. Here the
// library runs in Chromium under `Content-Security-Policy: script-src 'self'`
// (no 'unsafe-eval'): code generation is refused and rendering falls back to the
// interpreter with the same output; signing uses Web Crypto.
async function bundle(entry: string): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: resolve(entry), formats: ['es'], fileName: 'lib' } },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []));
  return chunks.map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n');
}

const page = `<!doctype html><meta charset="utf-8"><title>CSP</title><script type="module" src="/run.js"></script>`;
const run = `
  import { compileTemplate, buildPass } from '/core.js';
  import { signPayload, verifySignature } from '/webhooks.js';
  const violations = [];
  document.addEventListener('securitypolicyviolation', (event) => violations.push(event.violatedDirective));
  const template = ${JSON.stringify(eventTicket)};
  const values = ${JSON.stringify(eventValues)};
  try {
    const generated = compileTemplate(template).render(values);
    const interpreted = compileTemplate(template, { codegen: false }).render(values);
    const pass = buildPass(template, values, { teamIdentifier: 'A93A5CM278', organizationName: 'O', serialNumber: 's-1' });
    const signature = await signPayload('{"a":1}', 'secret');
    const verified = await verifySignature('{"a":1}', signature, ['other', 'secret']);
    await new Promise((done) => setTimeout(done, 50));
    window.__result = { generated, interpreted, serial: pass.serialNumber, signature, verified, violations };
  } catch (error) {
    window.__result = { error: String(error) };
  }
`;

describe.skipIf(!chromiumAvailable)('the library under a Content-Security-Policy without unsafe-eval', () => {
  let browser: Browser;
  let core = '';
  let webhooks = '';
  beforeAll(async () => {
    [core, webhooks] = await Promise.all([bundle('src/index.ts'), bundle('src/webhooks/index.ts')]);
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

  test('renders through the interpreter with identical output, and signs with Web Crypto', async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(String(error)));
    const files: Record<string, [string, string]> = {
      '/': ['text/html', page],
      '/run.js': ['text/javascript', run],
      '/core.js': ['text/javascript', core],
      '/webhooks.js': ['text/javascript', webhooks],
    };
    // Served from memory: no network, and the policy comes as a response header.
    await tab.route('http://127.0.0.1:9/**', async (route) => {
      const file = files[new URL(route.request().url()).pathname];
      if (file === undefined) return route.fulfill({ status: 404 });
      return route.fulfill({ status: 200, contentType: file[0], body: file[1], headers: { 'content-security-policy': "script-src 'self'" } });
    });
    // 127.0.0.1 is a secure context: Web Crypto's subtle is there.
    await tab.goto('http://127.0.0.1:9/');
    await tab.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, undefined, { timeout: 10_000 });
    const result = (await tab.evaluate(() => (window as unknown as { __result: unknown }).__result)) as Record<string, unknown>;
    expect(result['error']).toBeUndefined();
    expect(result['generated']).toEqual(eventBody);
    expect(result['interpreted']).toEqual(eventBody);
    expect(result['serial']).toBe('s-1');
    expect(result['signature']).toBe(`sha1=${createHmac('sha1', 'secret').update('{"a":1}').digest('hex')}`);
    expect(result['verified']).toBe(true);
    // The refused `new Function` is what made the default path fall back.
    expect(result['violations']).toContain('script-src');
    expect(errors).toEqual([]);
    await tab.close();
  });
});
