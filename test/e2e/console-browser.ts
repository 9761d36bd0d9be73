// The console in Chromium against a real `passmint serve` (a PGlite folder):
// the console built once per test run into dist/console (where the service
// reads it), the CLI bundled from src/ (test/server/child.ts), Chromium.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { bundleCli, type ServeProcess, startServe } from '../server/child.js';
import { CHROMIUM } from './browser.js';

/** A running service with the console, its first (admin) key, and Chromium. */
export interface ConsoleHarness {
  readonly url: string;
  readonly adminKey: string;
  readonly browser: Browser;
  readonly serve: ServeProcess;
  /** An API call with a key (the test's own setup, never the browser's). */
  api(path: string, init?: { method?: string; json?: unknown; body?: string; contentType?: string; key?: string }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The console built as `npm run build` builds it, once per `vitest run`: the first
 * file to get here builds (holding a lock in the run's folder), the others wait.
 */
async function consoleBuild(): Promise<void> {
  const shared = process.env['PASSMINT_PLAYGROUND_BUILD'];
  if (shared === undefined) return buildConsole();
  const built = join(shared, 'console-built');
  const lock = join(shared, 'console-building');
  while (!existsSync(built)) {
    try {
      mkdirSync(lock);
    } catch {
      await new Promise((done) => setTimeout(done, 250));
      continue;
    }
    try {
      if (!existsSync(built)) {
        await buildConsole();
        writeFileSync(built, '');
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

async function buildConsole(): Promise<void> {
  // A production build (Vite reads NODE_ENV, which the test runner sets to 'test').
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({ configFile: resolve('console/vite.config.ts'), logLevel: 'silent' });
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
}

/** Builds the console, starts `passmint serve` on a fresh PGlite folder (port 0) and Chromium. */
export async function startConsole(): Promise<ConsoleHarness> {
  const [cli] = await Promise.all([bundleCli(), consoleBuild()]);
  const data = mkdtempSync(join(tmpdir(), 'passmint-console-e2e-'));
  const serve = await startServe(cli.script, ['--data', join(data, 'db')]);
  const adminKey = serve.apiKey;
  if (adminKey === undefined) throw new Error(`passmint serve printed no API key:\n${serve.output()}`);
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
  const url = serve.url.replace(/\/$/, '');
  return {
    url,
    adminKey,
    browser,
    serve,
    api: (path, init = {}) =>
      fetch(`${url}${path}`, {
        method: init.method ?? (init.json === undefined && init.body === undefined ? 'GET' : 'POST'),
        headers: {
          authorization: `Bearer ${init.key ?? adminKey}`,
          ...(init.json !== undefined ? { 'content-type': 'application/json' } : init.contentType === undefined ? {} : { 'content-type': init.contentType }),
        },
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : init.body === undefined ? {} : { body: init.body }),
      }),
    async close() {
      await browser.close();
      serve.child.kill('SIGTERM');
      await serve.exited;
      cli.remove();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** A page on the console that records page errors and dialogs (a test fails on any it did not expect). */
export interface ConsolePage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly errors: string[];
  readonly dialogs: string[];
}

/** A new browser context (its own cookies) on a console page; confirm() dialogs are accepted and recorded. */
export async function openConsole(harness: ConsoleHarness, options: { path?: string; width?: number; bypassCSP?: boolean } = {}): Promise<ConsolePage> {
  // bypassCSP only for axe, whose script is injected inline; every other page runs under the service's CSP (a violation is a console error).
  const context = await harness.browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, bypassCSP: options.bypassCSP ?? false });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  // Where a CSP violation comes from (file, line, the start of what was refused), logged as an error the test sees.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(
        `CSP ${event.violatedDirective} refused ${JSON.stringify(event.sample)} from ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      ),
    );
  });
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => errors.push(`${new URL(page.url()).pathname}: ${error.message}`));
  page.on('console', (message) => {
    // A refused call (401 before sign-in, a route this service lacks) is logged by Chromium as a failed resource: not a page error.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  await page.goto(`${harness.url}/console${options.path ?? ''}`);
  return { page, context, errors, dialogs };
}

/** Signs in on the sign-in page with a key and waits for the console's navigation. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByTestId('key-input').fill(key);
  await page.getByTestId('sign-in-button').click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}
