import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { build, preview, type PreviewServer } from 'vite';

/** Debian's Chromium; CI installs it (see .ci/run). */
export const CHROMIUM = process.env['PASSMINT_CHROMIUM'] ?? '/usr/bin/chromium';
export const chromiumAvailable: boolean = existsSync(CHROMIUM);
/** Where the e2e run writes screenshots of the main states, for people to look at. */
export const SCREENSHOTS: string = resolve('test-results/screenshots');

/** A production build of the playground served by `vite preview`, and Chromium. */
export interface Harness {
  readonly url: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

/**
 * Serves a production build of the playground on 127.0.0.1 with an
 * OS-chosen port and launches Chromium. The build is made once per test run
 * (see {@link playgroundBuild}), not once per file.
 */
export async function startHarness(): Promise<Harness> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const configFile = resolve('vite.config.ts');
  const { outDir, owned } = await playgroundBuild(configFile);
  const server: PreviewServer = await preview({
    configFile,
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  const browser = await chromium.launch({
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
  return {
    url: `http://127.0.0.1:${port}/`,
    browser,
    async close() {
      await browser.close();
      await server.close();
      if (owned) rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * The playground built as `npm run build:playground` does. Under `vitest run`
 * the global setup (test/global-setup.ts) names a folder for the run in
 * `PASSMINT_PLAYGROUND_BUILD`: the first e2e file to get here builds into it,
 * holding a lock (a directory, made atomically) while the others wait, and
 * every later file serves the same files. Without that variable (the file
 * imported elsewhere) it builds into a scratch folder of its own.
 */
async function playgroundBuild(configFile: string): Promise<{ outDir: string; owned: boolean }> {
  const shared = process.env['PASSMINT_PLAYGROUND_BUILD'];
  if (shared === undefined) {
    const outDir = mkdtempSync(join(tmpdir(), 'passmint-playground-e2e-'));
    await buildPlayground(configFile, outDir);
    return { outDir, owned: true };
  }
  const outDir = join(shared, 'dist');
  const built = join(shared, 'built');
  const lock = join(shared, 'building');
  while (!existsSync(built)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another file is building: wait for it (its beforeAll times out if it hangs).
      await new Promise((done) => setTimeout(done, 250));
      continue;
    }
    try {
      if (!existsSync(built)) {
        await buildPlayground(configFile, outDir);
        writeFileSync(built, '');
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return { outDir, owned: false };
}

async function buildPlayground(configFile: string, outDir: string): Promise<void> {
  // The build a person gets (`npm run build:playground`): Vite decides "production" from
  // NODE_ENV, which the test runner sets to 'test' — that build would carry Preact's debug
  // hooks and devtools bridge (every vnode checked), and the tests would time and check another page.
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({ configFile, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
}

/** A page on the playground that records page errors (a test fails on any). */
export interface PlaygroundPage {
  readonly page: Page;
  readonly errors: string[];
}

/** The playground of one describe block: its harness, and pages that last one test. */
export interface PlaygroundSession {
  /** The running harness (between the block's beforeAll and afterAll). */
  readonly harness: Harness;
  /** Opens the playground; the page is closed before the next test. */
  open(options?: Parameters<typeof openPlayground>[1]): Promise<PlaygroundPage>;
  /** The pages the running test has opened. */
  readonly pages: readonly PlaygroundPage[];
}

/**
 * Call inside a describe block: starts the harness before its tests, closes
 * every page a test opened before the next test, and stops the harness after.
 */
export function playgroundSession(): PlaygroundSession {
  let harness: Harness | undefined;
  const opened: PlaygroundPage[] = [];
  beforeAll(async () => {
    harness = await startHarness();
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });
  beforeEach(async () => {
    await Promise.all(opened.map((playground) => playground.page.context().close()));
    opened.length = 0;
  });
  const session: PlaygroundSession = {
    get harness(): Harness {
      if (harness === undefined) throw new Error('the playground harness is not running (use it inside a test)');
      return harness;
    },
    // An arrow function: `const { open } = session` works as well.
    open: async (options = {}) => {
      const playground = await openPlayground(session.harness, options);
      opened.push(playground);
      return playground;
    },
    pages: opened,
  };
  return session;
}

/** Opens the playground (optionally at a given URL) and waits for the preview. */
export async function openPlayground(
  harness: Harness,
  options: { url?: string; viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<PlaygroundPage> {
  const context = await harness.browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  // Fail in seconds, not at Playwright's 30 s default, so a broken page shows up quickly.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(options.url ?? harness.url);
  await page.locator('[data-testid=pass-preview]').waitFor();
  return { page, errors };
}

/** Replaces the whole editor text the way a person pasting would. */
export async function replaceEditorText(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

/** Saves a screenshot under test-results/screenshots/. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  // Panels below the fold skip painting (content-visibility: auto); draw them for the picture.
  if (fullPage) await page.addStyleTag({ content: '.lazy-paint { content-visibility: visible !important; }' });
  await page.screenshot({ path: resolve(SCREENSHOTS, `${name}.png`), fullPage });
}

/** The state a playground URL carries in its `#z=` hash, decoded; `undefined` for anything else. */
export function sharedStateOf(
  url: string,
): { template: string; values: Record<string, { text: string; json: boolean }>; issuer: Record<string, unknown>; images?: Record<string, string> } | undefined {
  const hash = new URL(url).hash;
  if (!hash.startsWith('#z=')) return undefined;
  try {
    return JSON.parse(inflateRawSync(Buffer.from(hash.slice(3), 'base64url')).toString('utf8'));
  } catch {
    return undefined;
  }
}
