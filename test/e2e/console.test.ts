import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seriousViolations } from './axe.js';
import { chromiumAvailable } from './browser.js';
import { type ConsoleHarness, type ConsolePage, openConsole, signIn, startConsole } from './console-browser.js';

const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_VALUE = '</script><img src=x onerror=alert(2)>';
const PASS_TYPE = 'pass.com.example.console';

const template = (name: string): Record<string, unknown> => ({
  name,
  formatVersion: 1,
  passType: PASS_TYPE,
  description: {
    logoText: '${member}',
    generic: {
      primaryFields: [{ key: 'member', label: 'Member', value: '${member}' }],
      secondaryFields: [{ key: 'level', label: 'Level', value: '${level}' }],
    },
  },
  placeholder: ['member', 'level'],
});

const PAGES = ['/', '/templates', '/passes', '/import', '/messages', '/webhooks', '/keys', '/analytics'] as const;

describe.skipIf(!chromiumAvailable && !process.env['CI'])('the console', () => {
  let harness: ConsoleHarness;
  let templateId: number;
  let hostileId: number;
  const opened: ConsolePage[] = [];
  const open = async (options: Parameters<typeof openConsole>[1] = {}): Promise<ConsolePage> => {
    const page = await openConsole(harness, options);
    opened.push(page);
    return page;
  };

  beforeAll(async () => {
    harness = await startConsole();
    const made = await harness.api('/v1/templates', { json: template('Members') });
    expect(made.status).toBe(201);
    templateId = ((await made.json()) as { id: number }).id;
    const hostile = await harness.api('/v1/templates', { json: template(HOSTILE_NAME) });
    expect(hostile.status).toBe(201);
    hostileId = ((await hostile.json()) as { id: number }).id;
    for (const [serial, member] of [
      ['M-1', 'Grace Hopper'],
      ['M-2', 'Ada Lovelace'],
    ] as const) {
      const pass = await harness.api(`/v1/templates/${templateId}/passes`, { json: { serialNumber: serial, values: { member, level: 'Gold' } } });
      expect(pass.status).toBe(201);
    }
    const hostilePass = await harness.api(`/v1/templates/${hostileId}/passes`, {
      json: { serialNumber: 'H-1', values: { member: HOSTILE_VALUE, level: HOSTILE_NAME } },
    });
    expect(hostilePass.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(opened.map((page) => page.context.close()));
    await harness?.close();
  });

  test('sign in with the admin key: every page at its URL, axe without serious violations, no sideways scrolling at 390 px, the key in no storage', async () => {
    const { page, errors } = await open();
    await expect(page.getByRole('heading', { name: 'passmint console' }).textContent()).resolves.toBe('passmint console');
    await signIn(page, harness.adminKey);
    for (const path of PAGES) {
      await page.goto(`${harness.url}/console${path}`);
      await page.locator('main h1').waitFor();
      await page.getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'detached' });
    }
    // axe's script is inline: checked in a context that lets it in (the pages above ran under the CSP).
    const checked = await open({ bypassCSP: true });
    await signIn(checked.page, harness.adminKey);
    for (const path of [...PAGES, `/passes/${PASS_TYPE}/M-1`, `/templates/${templateId}`]) {
      await checked.page.goto(`${harness.url}/console${path}`);
      await checked.page.locator('main h1').waitFor();
      await checked.page.getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'detached' });
      expect(await seriousViolations(checked.page), path).toEqual([]);
    }
    // 390 px: no page scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [...PAGES, `/passes/${PASS_TYPE}/M-1`, `/templates/${templateId}`]) {
      await page.goto(`${harness.url}/console${path}`);
      await page.locator('main h1').waitFor();
      await page.getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'detached' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    // The key is nowhere the page's scripts could read it.
    const stored = await page.evaluate(async () => {
      const idb = await indexedDB.databases();
      return {
        local: JSON.stringify({ ...localStorage }),
        session: JSON.stringify({ ...sessionStorage }),
        cookies: document.cookie,
        url: location.href,
        idb: idb.map((db) => db.name ?? ''),
        html: document.documentElement.outerHTML,
      };
    });
    for (const [where, text] of Object.entries(stored)) expect(JSON.stringify(text), where).not.toContain(harness.adminKey);
    const cookies = await page.context().cookies();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.value).not.toContain(harness.adminKey);
    }
    expect(errors).toEqual([]);
  });
});
