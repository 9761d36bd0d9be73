import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
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
      // The field messages are written into: its value one placeholder, a changeMessage with %@.
      backFields: [{ key: 'news', label: 'News', value: '${news}', changeMessage: '%@' }],
    },
  },
  placeholder: ['member', 'level', 'news'],
});

const PAGES = ['/', '/templates', '/passes', '/import', '/messages', '/webhooks', '/keys', '/analytics'] as const;

/** Goes to a console page and waits until it has loaded what it shows. */
async function visit(page: Page, url: string, path: string): Promise<void> {
  await page.goto(`${url}/console${path}`);
  await page.locator('main h1').waitFor();
  await page.getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'detached' });
}

/** `npm run screenshots` (PASSMINT_CONSOLE_SCREENSHOTS=1): each page into docs/screenshots/console-<page>.png. */
async function picture(page: Page, path: string): Promise<void> {
  const name = path === '/' ? 'overview' : path.startsWith('/passes/') ? 'pass' : path.startsWith('/templates/') ? 'designer' : path.slice(1);
  if (name === 'designer') await page.getByTestId('pass-preview').waitFor();
  if (name === 'analytics') await page.getByTestId('chart-made').locator('canvas').waitFor();
  if (name === 'pass') await page.getByTestId('pass-drawing').waitFor();
  await page.screenshot({ path: resolve(`docs/screenshots/console-${name}.png`), fullPage: true });
}

/** The sum of a chart's table column (the table beside the chart). */
async function columnSum(page: Page, table: string, column: number): Promise<number> {
  const cells = await page.locator(`[data-testid=${table}] tbody tr td:nth-of-type(${column})`).allTextContents();
  return cells.reduce((sum, cell) => sum + Number(cell), 0);
}

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
      const pass = await harness.api(`/v1/templates/${templateId}/passes`, { json: { serialNumber: serial, values: { member, level: 'Gold', news: 'none' } } });
      expect(pass.status).toBe(201);
    }
    const hostilePass = await harness.api(`/v1/templates/${hostileId}/passes`, {
      json: { serialNumber: 'H-1', values: { member: HOSTILE_VALUE, level: HOSTILE_NAME, news: HOSTILE_VALUE } },
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
    for (const path of PAGES) await visit(page, harness.url, path);
    // axe's script is inline: checked in a context that lets it in (the pages above ran under the CSP).
    const checked = await open({ bypassCSP: true });
    await signIn(checked.page, harness.adminKey);
    for (const path of [...PAGES, `/passes/${PASS_TYPE}/M-1`, `/templates/${templateId}`]) {
      await visit(checked.page, harness.url, path);
      if (process.env['PASSMINT_CONSOLE_SCREENSHOTS'] === '1') await picture(checked.page, path);
      expect(await seriousViolations(checked.page), path).toEqual([]);
    }
    // 390 px: no page scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [...PAGES, `/passes/${PASS_TYPE}/M-1`, `/templates/${templateId}`]) {
      await visit(page, harness.url, path);
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

  test('the designer: edit, save a new version, publish after the dry run shows the count and one pass before and after', async () => {
    const { page, errors } = await open();
    await signIn(page, harness.adminKey);
    await visit(page, harness.url, `/templates/${templateId}`);
    await page.locator('.cm-content').waitFor();
    await page.getByTestId('pass-preview').waitFor();
    // One word changed as a person would: double-click it, type over it.
    await page.locator('.cm-content').getByText('"Level"', { exact: true }).dblclick();
    await page.keyboard.type('Tier');
    expect(await page.locator('.cm-content').textContent()).toContain('"Tier"');
    await page
      .getByTestId('pass-preview')
      .getByText('Tier')
      .waitFor()
      .catch(async (error: Error) => {
        const shown = await page.locator('.designer-preview').textContent();
        const issues = await page.locator('.designer-editor').textContent();
        throw new Error(`${error.message}\npreview: ${shown}\neditor panel: ${issues?.slice(-600)}`);
      });
    await page.getByTestId('save-template').click();
    await page.getByTestId('save-status').getByText('Saved').waitFor();
    await page.getByTestId('template-versions').locator('li').nth(1).waitFor();
    await page.getByTestId('publish-check').click();
    const dry = page.getByTestId('publish-dry-run');
    await dry.waitFor();
    expect(await dry.locator('strong').first().textContent()).toBe('2');
    expect(await page.getByTestId('diff-before').textContent()).toContain('Level');
    expect(await page.getByTestId('diff-after').textContent()).toContain('Tier');
    await page.getByTestId('publish-confirm').click();
    await page.locator('[data-testid=job][data-state=succeeded]').waitFor();
    const passJson = (await (await harness.api(`/v1/passes/${PASS_TYPE}/M-1/passjson`)).json()) as { generic: { secondaryFields: { label: string }[] } };
    expect(passJson.generic.secondaryFields[0]?.label).toBe('Tier');
    expect(errors).toEqual([]);
  });

  test('import: the first rows under the placeholders, unknown and missing columns before starting, the progress to the end, the failed rows', async () => {
    const { page, errors } = await open();
    await signIn(page, harness.adminKey);
    await visit(page, harness.url, '/import');
    await page.locator('#import-template').selectOption(String(templateId));
    await page.getByTestId('import-file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('member,nickname\nGrace,G\n') });
    expect(await page.getByTestId('unknown-columns').textContent()).toContain('nickname');
    expect(await page.getByTestId('missing-columns').textContent()).toContain('level, news');
    expect(await page.getByTestId('import-start').isDisabled()).toBe(true);
    const csv = 'serialNumber,member,level,news\nI-1,"Hopper, Grace",Gold,hello\nI-2,Katherine Johnson,Silver,hi\nM-1,Taken Serial,Gold,x\n';
    await page.getByTestId('import-file').setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('import-preview').locator('tbody tr').nth(2).waitFor();
    expect(await page.getByTestId('import-preview').locator('tbody tr').count()).toBe(3);
    expect(await page.getByTestId('import-preview').locator('tbody tr').first().textContent()).toContain('Hopper, Grace');
    await page.getByTestId('import-start').click();
    await page.locator('[data-testid=job][data-state=succeeded]').waitFor();
    expect(await page.getByTestId('job-counts').textContent()).toContain('2 created');
    const failed = page.getByTestId('failed-rows');
    await failed.waitFor();
    expect(await failed.locator('tbody tr').count()).toBe(1);
    expect(await failed.locator('tbody tr').textContent()).toContain('M-1');
    expect(await page.getByTestId('job-results').getAttribute('href')).toMatch(/^\/v1\/jobs\/[0-9a-f-]+\/results$/);
    expect(errors).toEqual([]);
  });

  test('a pass: search by serial, its page, void it (the timeline says so); a message sent to the template, in the history', async () => {
    const { page, errors, dialogs } = await open();
    await signIn(page, harness.adminKey);
    await visit(page, harness.url, '/passes');
    await page.locator('#search-serial').fill('M-2');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/serialNumber=M-2/);
    await page.getByTestId('passes').getByRole('link', { name: 'M-2' }).click();
    await page.getByRole('heading', { name: 'Pass M-2' }).waitFor();
    await page.getByTestId('pass-drawing').waitFor();
    expect(await page.getByTestId('share-link').textContent()).toMatch(/\/p\/\S+$/);
    await page.getByTestId('share-qr').locator('canvas').waitFor();
    await page.getByTestId('pass-void').click();
    await page.getByTestId('pass-state').getByText('voided').waitFor();
    expect(dialogs).toEqual(['confirm: Void pass M-2?']);
    await page.getByTestId('timeline').locator('[data-kind=voided]').waitFor();
    expect(await page.getByTestId('pass-void').count()).toBe(0);

    await visit(page, harness.url, '/messages');
    await page.locator('#message-template').selectOption(String(templateId));
    await page.locator('#message-header').fill('Opening hours');
    await page.locator('#message-body').fill('Open until 22:00 on Friday.');
    expect(await page.getByTestId('message-preview').textContent()).toContain('Open until 22:00 on Friday.');
    await page.getByTestId('message-send').click();
    await page.getByTestId('message-status').getByText('Sent to').waitFor();
    await page.getByTestId('message-history').getByText('Open until 22:00 on Friday.').waitFor();
    expect(errors).toEqual([]);
  });

  test('analytics: the chart and its table count the passes made after more are added', async () => {
    const { page, errors } = await open();
    await signIn(page, harness.adminKey);
    await visit(page, harness.url, `/analytics?templateId=${templateId}&interval=hour`);
    await page.getByTestId('chart-made').locator('canvas').waitFor();
    const before = await columnSum(page, 'chart-made-table', 1);
    expect(before).toBeGreaterThanOrEqual(2);
    for (const serial of ['A-1', 'A-2', 'A-3']) {
      const made = await harness.api(`/v1/templates/${templateId}/passes`, {
        json: { serialNumber: serial, values: { member: serial, level: 'Gold', news: '' } },
      });
      expect(made.status).toBe(201);
    }
    await page.reload();
    await page.getByTestId('chart-made').locator('canvas').waitFor();
    expect(await columnSum(page, 'chart-made-table', 1)).toBe(before + 3);
    expect(errors).toEqual([]);
  });

  test('hostile template names and values are shown as text on every page, charts included', async () => {
    const { page, errors, dialogs } = await open();
    await signIn(page, harness.adminKey);
    const places: [string, string][] = [
      ['/', HOSTILE_NAME],
      ['/templates', HOSTILE_NAME],
      [`/templates/${hostileId}`, HOSTILE_NAME],
      [`/passes?templateId=${hostileId}`, HOSTILE_NAME],
      [`/passes/${PASS_TYPE}/H-1`, HOSTILE_VALUE],
      [`/analytics?templateId=${hostileId}`, HOSTILE_NAME],
      ['/messages', HOSTILE_NAME],
    ];
    for (const [path, text] of places) {
      await visit(page, harness.url, path);
      if (path === `/analytics?templateId=${hostileId}`) await page.getByTestId('chart-made').locator('canvas').waitFor();
      if (path.startsWith('/templates/')) await page.getByTestId('pass-preview').waitFor();
      if (path.startsWith('/passes/')) await page.getByTestId('pass-drawing').waitFor();
      // The page's lists arrive after its frame (the analytics page's template picker among them): wait for the text.
      await page.waitForFunction((t) => document.body.textContent?.includes(t), text);
      expect(await page.locator('body').textContent(), path).toContain(text);
      expect(await page.locator('img[src=x], script:not([src])').count(), path).toBe(0);
    }
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('a read key: no write controls anywhere; the service refuses a change anyway', async () => {
    const made = await harness.api('/v1/keys', { json: { name: 'front desk', scopes: ['read'] } });
    expect(made.status).toBe(201);
    const readKey = ((await made.json()) as { key: string }).key;
    const { page, errors } = await open();
    await signIn(page, readKey);
    const nav = await page.getByRole('navigation', { name: 'Console' }).textContent();
    expect(nav ?? '').not.toContain('Import');
    expect(nav ?? '').not.toContain('Keys');
    const writes =
      '[data-testid=new-template], [data-testid=save-template], [data-testid=publish-check], #image-file, [data-testid=save-values], [data-testid=lifecycle], ' +
      '[data-testid=import-file], [data-testid=message-form], [data-testid=new-webhook], [data-testid=rotate-secret], [data-testid=replay], [data-testid=new-key]';
    for (const path of [...PAGES, `/templates/${templateId}`, `/passes/${PASS_TYPE}/M-1`]) {
      await visit(page, harness.url, path);
      expect(await page.locator(writes).count(), path).toBe(0);
    }
    // The pass's values are shown read-only.
    await visit(page, harness.url, `/passes/${PASS_TYPE}/M-1`);
    expect(await page.locator('#value-member').getAttribute('readonly')).not.toBeNull();
    const refused = await page.evaluate(async () => (await fetch('/v1/templates', { method: 'POST', credentials: 'same-origin', body: '{}' })).status);
    expect([401, 403]).toContain(refused);
    expect(errors).toEqual([]);
  });

  test('keyboard only: sign in, reach Passes, search, open a pass; the back button returns to the search; sign out', async () => {
    const { page, errors } = await open();
    const focused = (): Promise<string> =>
      page.evaluate(() => `${document.activeElement?.tagName}:${document.activeElement?.textContent?.trim() ?? ''}:${document.activeElement?.id ?? ''}`);
    const tabTo = async (match: (text: string) => boolean): Promise<void> => {
      for (let step = 0; step < 40; step++) {
        await page.keyboard.press('Tab');
        if (match(await focused())) return;
      }
      throw new Error(`never reached by Tab (last: ${await focused()})`);
    };
    await tabTo((text) => text.endsWith(':key'));
    await page.keyboard.type(harness.adminKey);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await tabTo((text) => text === 'A:Passes:');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/passes$/);
    await tabTo((text) => text.endsWith(':search-serial'));
    await page.keyboard.type('M-1');
    await page.keyboard.press('Enter');
    await page.waitForURL(/serialNumber=M-1/);
    await page.getByTestId('passes').waitFor();
    await tabTo((text) => text === 'A:M-1:');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Pass M-1' }).waitFor();
    await page.goBack();
    await page.waitForURL(/serialNumber=M-1/);
    await page.getByTestId('passes').getByRole('link', { name: 'M-1' }).waitFor();
    await tabTo((text) => text === 'BUTTON:Sign out:');
    await page.keyboard.press('Enter');
    await page.getByTestId('sign-in').waitFor();
    expect(await page.evaluate(async () => (await fetch('/console/session', { credentials: 'same-origin' })).status)).toBe(401);
    expect(errors).toEqual([]);
  });

  test('a page on another port of the same host, with the session cookie in the browser: its form post and its fetch change nothing', async () => {
    const { page } = await open();
    await signIn(page, harness.adminKey);
    const count = async (): Promise<number> => ((await (await harness.api('/v1/templates?limit=100')).json()) as { items: unknown[] }).items.length;
    const templatesBefore = await count();
    const body = JSON.stringify(template('Forged'));
    const attacker = createServer((request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        request.url === '/fetch'
          ? `<!doctype html><title>fetch</title><script>fetch(${JSON.stringify(`${harness.url}/v1/templates`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(body)} }).then(() => { document.title = 'sent'; }, () => { document.title = 'sent'; });</script>`
          : `<!doctype html><title>form</title><form method="post" enctype="text/plain" action="${harness.url}/v1/templates"><input name='${body.slice(0, -1)},"x":"' value='"}'></form>`,
      );
    });
    await new Promise<void>((done) => attacker.listen(0, '127.0.0.1', done));
    const other = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
    try {
      const attackPage = await page.context().newPage();
      await attackPage.goto(`${other}/form`);
      const [answer] = await Promise.all([
        attackPage.waitForResponse(`${harness.url}/v1/templates`),
        attackPage.locator('form').evaluate((form: HTMLFormElement) => form.submit()),
      ]);
      expect(answer.status()).toBe(403);
      const fetchPage = await page.context().newPage();
      const fetched = fetchPage.waitForResponse(`${harness.url}/v1/templates`);
      await fetchPage.goto(`${other}/fetch`);
      expect((await fetched).status()).toBe(403);
      await fetchPage.waitForFunction(() => document.title === 'sent');
      expect(await count()).toBe(templatesBefore);
    } finally {
      await new Promise((done) => attacker.close(done));
    }
  });
});
