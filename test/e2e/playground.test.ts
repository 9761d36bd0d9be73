import { createHmac } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { CHROMIUM, chromiumAvailable, playgroundSession, replaceEditorText, SCREENSHOTS, screenshot } from './browser.js';

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;
const first = examples[0];
if (first === undefined) throw new Error('no examples');

if (!chromiumAvailable && process.env['CI'] === undefined) {
  process.stderr.write(`\n[e2e] SKIPPED: ${CHROMIUM} not found — install Debian's chromium to run the playground tests (under CI they fail instead).\n\n`);
} else if (chromiumAvailable) {
  process.stdout.write(`\n[e2e] playground screenshots: ${SCREENSHOTS}/\n`);
}

describe.runIf(!chromiumAvailable && process.env['CI'] !== undefined)('playground e2e prerequisites', () => {
  test(`Chromium is installed at ${CHROMIUM} (required under CI)`, () => {
    expect.fail(`${CHROMIUM} is missing: CI must install Debian's chromium (see .ci/run)`);
  });
});

describe.skipIf(!chromiumAvailable)(`playground in Chromium (screenshots in ${SCREENSHOTS}/)`, () => {
  const session = playgroundSession();
  const open = async (options: Parameters<typeof session.open>[0] = {}): Promise<Page> => (await session.open(options)).page;

  function pageErrors(): string[] {
    return session.pages.flatMap((playground) => playground.errors);
  }

  const preview = (page: Page) => page.locator('[data-testid=pass-preview]');
  const summary = (page: Page) => page.locator('[data-testid=issue-summary]');

  test('loads with the first example rendered, valid, its barcode drawn', async () => {
    const page = await open();
    await expect.poll(() => preview(page).locator('[data-testid=logo-text]').textContent()).toBe('Northside Climbing');
    // With the examples' stand-in icon: a pass packPass accepts.
    await expect.poll(() => summary(page).textContent()).toBe('No issues: the pass is valid.');
    await expect.poll(() => page.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    expect(await preview(page).getAttribute('data-style')).toBe('generic');
    expect(await preview(page).locator('[data-testid=primary-fields]').textContent()).toContain('Grace Hopper');
    await screenshot(page, '01-initial');
    expect(pageErrors()).toEqual([]);
  });

  test('changing a value changes the preview text; the form follows the template and keeps what was typed', async () => {
    const page = await open();
    await page.getByLabel('firstName', { exact: true }).fill('Katherine');
    await expect.poll(() => preview(page).locator('[data-testid=primary-fields]').textContent()).toContain('Katherine Hopper');
    // pass.json follows one frame behind the preview.
    await expect.poll(() => page.locator('[data-testid=pass-json]').textContent()).toContain('"value": "Katherine Hopper"');

    // The form follows the template: a name taken out loses its input, put back it has the typed value again.
    const original = templateText(first.template);
    await replaceEditorText(page, original.replace('${firstName} ${lastName}', '${lastName}').replace('"firstName",', ''));
    await expect.poll(() => page.getByLabel('firstName', { exact: true }).count()).toBe(0);
    await replaceEditorText(page, original);
    await expect.poll(() => page.getByLabel('firstName', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('firstName', { exact: true }).inputValue()).toBe('Katherine');

    // New serial number and token.
    const serial = await page.getByLabel('Serial number').inputValue();
    await page.locator('[data-testid=regenerate]').click();
    const next = await page.getByLabel('Serial number').inputValue();
    expect(next).not.toBe(serial);
    expect(next).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await expect.poll(() => page.locator('[data-testid=pass-json]').textContent()).toContain(`"serialNumber": "${next}"`);
    expect(pageErrors()).toEqual([]);
  });

  test('backgroundColor #ff0000 is drawn as rgb(255, 0, 0)', async () => {
    const page = await open();
    await replaceEditorText(page, templateText(first.template).replace('"backgroundColor": "rgb(22, 101, 52)"', '"backgroundColor": "#ff0000"'));
    await expect.poll(() => preview(page).evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 0, 0)');
    const legend = await page.locator('.color-legend').textContent();
    expect(legend).toContain('#ff0000');
    expect(legend).toContain('rgb(255, 0, 0)');
    // buildPass writes the rgb() form Apple documents.
    await expect.poll(() => page.locator('[data-testid=pass-json]').textContent()).toContain('"backgroundColor": "rgb(255, 0, 0)"');
    await screenshot(page, '02-red-background');
    expect(pageErrors()).toEqual([]);
  });

  test('an undeclared placeholder is reported; clicking the issue puts the cursor on it', async () => {
    const page = await open();
    const text = templateText(first.template).replace('"logoText": "Northside Climbing"', '"logoText": "Northside ${clubName}"');
    await replaceEditorText(page, text);
    const issue = page.locator('[data-testid=issues] button[data-code=undeclared-placeholder]');
    await issue.waitFor();
    expect(await issue.textContent()).toContain('clubName');
    expect(await issue.getAttribute('data-source')).toBe('template');
    await screenshot(page, '03-undeclared-placeholder');

    // Move the cursor elsewhere first, so the click is what brings it back.
    await page.keyboard.press('ControlOrMeta+Home');
    await issue.click();
    const expectedLine = text.slice(0, text.indexOf('${clubName}')).split('\n').length;
    await expect.poll(() => page.locator('.cm-activeLineGutter').first().textContent()).toBe(String(expectedLine));
    expect(await page.locator('.cm-activeLine').first().textContent()).toContain('"logoText": "Northside ${clubName}"');
    expect(await page.evaluate(() => document.getSelection()?.toString())).toBe('${clubName}');
    expect(pageErrors()).toEqual([]);
  });

  test('a JSON error is shown at its line and column and clicking it goes there', async () => {
    const page = await open();
    const text = templateText(first.template).replace('"logoText": "Northside Climbing",', '"logoText": "Northside Climbing"');
    await replaceEditorText(page, text);
    const issue = page.locator('[data-testid=issues] button[data-code=invalid-json]');
    await issue.waitFor();
    const line = text.split('\n').findIndex((row) => row.includes('"logoText"')) + 2;
    expect(await issue.textContent()).toContain(`line ${line}, column 5`);
    await page.keyboard.press('ControlOrMeta+Home');
    await issue.click();
    await expect.poll(() => page.locator('.cm-activeLineGutter').first().textContent()).toBe(String(line));
    expect(pageErrors()).toEqual([]);
  });

  test('a shared URL opens the same state', async () => {
    const page = await open();
    const text = templateText(first.template).replace('"logoText": "Northside Climbing"', '"logoText": "Shared Climbing"');
    await replaceEditorText(page, text);
    await page.getByLabel('lastName', { exact: true }).fill('Johnson');
    await page.getByLabel('Organization name').fill('Shared Org');
    await page.locator('[data-testid=share]').click();
    // The hash follows every change (debounced); wait until it holds this one.
    const sharedOf = (url: string): { template: string; values: Record<string, unknown>; issuer: Record<string, unknown> } | undefined => {
      const hash = new URL(url).hash;
      return hash.startsWith('#z=') ? JSON.parse(inflateRawSync(Buffer.from(hash.slice(3), 'base64url')).toString('utf8')) : undefined;
    };
    await expect.poll(() => sharedOf(page.url())?.issuer['organizationName']).toBe('Shared Org');
    const url = page.url();
    const shared = sharedOf(url);
    expect(shared?.template).toBe(text);
    expect(shared?.values['lastName']).toEqual({ text: 'Johnson', json: false });

    const other = await open({ url });
    await expect.poll(() => preview(other).locator('[data-testid=logo-text]').textContent()).toBe('Shared Climbing');
    expect(await other.getByLabel('lastName', { exact: true }).inputValue()).toBe('Johnson');
    expect(await other.getByLabel('Organization name').inputValue()).toBe('Shared Org');
    const json = await page.locator('[data-testid=pass-json]').textContent();
    await expect.poll(() => other.locator('[data-testid=pass-json]').textContent()).toBe(json);
    // Reload keeps it.
    await other.reload();
    await expect.poll(() => preview(other).locator('[data-testid=logo-text]').textContent()).toBe('Shared Climbing');
    expect(pageErrors()).toEqual([]);
  });

  test('every example template renders without errors and draws its barcode', async () => {
    const page = await open();
    for (const example of examples) {
      await page.locator('[data-testid=example-picker]').selectOption(example.id);
      // No errors: every example carries a stand-in icon.
      await expect.poll(() => summary(page).textContent()).toBe('No issues: the pass is valid.');
      await expect.poll(() => page.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
      const style = Object.keys(example.template.description).find((key) => ['generic', 'eventTicket', 'coupon', 'storeCard', 'boardingPass'].includes(key));
      // A poster pass shows its poster first; its style is the layout older iPhones show.
      if ((await page.locator('[data-testid=show-fallback]').count()) > 0) await page.locator('[data-testid=show-fallback]').click();
      expect(await preview(page).getAttribute('data-style')).toBe(style);
      if ((await page.locator('[data-testid=show-poster]').count()) > 0) await page.locator('[data-testid=show-poster]').click();
      await screenshot(page, `04-example-${example.id}`);
    }
    expect(pageErrors()).toEqual([]);
  });

  test('the webhook tool signs a body and checks a header', async () => {
    const page = await open();
    await page.locator('#webhook-heading').click();
    await page.getByLabel('Request body (exact bytes)').fill('{"type":"pass.created"}');
    await page.getByLabel('Signing secret').fill('s3cret');
    const expected = `sha1=${createHmac('sha1', 's3cret').update('{"type":"pass.created"}').digest('hex')}`;
    await expect.poll(() => page.locator('[data-testid=webhook-signature]').textContent()).toBe(expected);
    await page.getByLabel('Received header (to check)').fill(expected.toUpperCase().replace('SHA1=', 'sha1='));
    await expect.poll(() => page.locator('[data-testid=webhook-verdict]').textContent()).toContain('The signature matches.');
    await page.getByLabel('Request body (exact bytes)').fill('{"type":"pass.created"}\n');
    await expect.poll(() => page.locator('[data-testid=webhook-verdict]').textContent()).toContain('does not match');
    expect(await page.locator('[data-testid=webhook-verdict]').textContent()).toContain('line break');
    await screenshot(page, '05-webhook-tool');
    expect(pageErrors()).toEqual([]);
  });

  test('works from the keyboard: Tab indents, Escape then Tab leaves the editor, issues open with Enter', async () => {
    const page = await open();
    await replaceEditorText(page, templateText(first.template).replace('"${level}"', '"${levle}"'));
    const inEditor = () => page.evaluate(() => document.activeElement?.closest('.cm-editor') !== null);
    expect(await inEditor()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await inEditor()).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await inEditor()).toBe(false);

    const issue = page.locator('[data-testid=issues] button[data-code=undeclared-placeholder]');
    expect(await issue.textContent()).toContain('levle');
    await issue.focus();
    await page.keyboard.press('Enter');
    expect(await inEditor()).toBe(true);
    expect(await page.evaluate(() => document.getSelection()?.toString())).toBe('${levle}');
    expect(pageErrors()).toEqual([]);
  });

  test('phone-sized, dark theme, every control labelled', async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, '06-phone-dark');
    await page.locator('[data-testid=theme-toggle]').click();
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('light');
    await screenshot(page, '07-phone-light');
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea, button')]
        .filter((element) => {
          const control = element as HTMLInputElement;
          return (control.labels?.length ?? 0) === 0 && !control.getAttribute('aria-label') && (control.textContent ?? '').trim() === '';
        })
        .map((element) => element.outerHTML.slice(0, 80)),
    );
    expect(unlabelled).toEqual([]);
    expect(pageErrors()).toEqual([]);
  });
});
