import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { seriousViolations } from './axe.js';
import { chromiumAvailable, replaceEditorText, screenshot, playgroundSession, sharedStateOf } from './browser.js';

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;
const first = examples[0];
if (first === undefined) throw new Error('no examples');
describe.skipIf(!chromiumAvailable)('playground: fixes (links, picker, issues, phone, accessibility, layout)', () => {
  const session = playgroundSession();
  const { open } = session;
  const summary = (page: Page) => page.locator('[data-testid=issue-summary]');

  test('a broken share link says so and the address keeps it until the person edits', async () => {
    const broken = `${session.harness.url}#z=q1YqyUxPLUotUbJSUEotS8zJL0pVqgUA`;
    const { page, errors } = await open({ url: broken });
    await expect.poll(() => page.locator('[data-testid=link-problem]').textContent()).toContain('This link could not be opened');
    // Longer than the address's write delay (300 ms, then an idle moment).
    await page.waitForTimeout(1000);
    expect(page.url()).toBe(broken);
    await screenshot(page, '30-broken-link', false);
    // Truncated base64 (not deflate) says so too.
    const cut = await open({ url: `${session.harness.url}#z=AAAA` });
    await expect.poll(() => cut.page.locator('[data-testid=link-problem]').textContent()).toContain('cut short or mangled');
    // Once the person edits, the address follows the state again.
    await page.getByLabel('firstName', { exact: true }).fill('Ada');
    await expect.poll(() => page.url()).not.toBe(broken);
    expect(page.url()).toMatch(/#z=/);
    expect([...errors, ...cut.errors]).toEqual([]);
  });

  test('the skip link moves to the preview without wiping the state in the address', async () => {
    const { page, errors } = await open();
    await page.getByLabel('firstName', { exact: true }).fill('Katherine');
    await expect.poll(() => sharedStateOf(page.url())?.values['firstName']?.text).toBe('Katherine');
    const url = page.url();
    await page.keyboard.press('Tab');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('.skip').focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('preview-heading');
    await page.waitForTimeout(1000);
    expect(page.url()).toBe(url);
    await page.reload();
    await expect.poll(() => page.locator('[data-testid=pass-preview] [data-testid=primary-fields]').textContent()).toContain('Katherine');
    expect(errors).toEqual([]);
  });

  test('the example picker shows an edit and reloads the same example', async () => {
    const { page, errors } = await open();
    const picker = page.locator('[data-testid=example-picker]');
    expect(await picker.inputValue()).toBe(first.id);
    await replaceEditorText(page, templateText(first.template).replace('Northside Climbing', 'Southside Climbing'));
    await expect.poll(() => picker.inputValue()).toBe('');
    expect(await picker.locator('option:checked').textContent()).toBe(`${first.title} — edited`);
    await picker.selectOption(first.id);
    await expect.poll(() => page.locator('[data-testid=pass-preview] [data-testid=logo-text]').textContent()).toBe('Northside Climbing');
    expect(await picker.inputValue()).toBe(first.id);
    expect(errors).toEqual([]);
  });

  test('an issue found by both the template and the pass checks is listed once', async () => {
    const { page, errors } = await open();
    const template = structuredClone(first.template) as unknown as { description: { generic: { primaryFields: unknown[] } } };
    template.description.generic.primaryFields.push({ key: 'extra', label: 'Extra', value: 'Not shown' });
    await replaceEditorText(page, templateText(template));
    const items = page.locator('[data-testid=issues] button[data-code=too-many-fields]');
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    expect(await items.first().locator('.issue-where').textContent()).toContain('validateTemplate + validatePass');
    // Wallet's layout: the extra field is not drawn, and the preview says so.
    expect(await page.locator('[data-testid=pass-preview] [data-key=extra]').count()).toBe(0);
    expect(await page.locator('[data-testid=hidden-fields]').textContent()).toBe('+1 field Wallet does not show');
    expect(errors).toEqual([]);
  });

  test('JSON checkboxes are named after their value', async () => {
    const { page, errors } = await open();
    const boxes = page.locator('[data-testid=json-toggle]');
    expect(await boxes.count()).toBe(7);
    await page.getByLabel('memberId as JSON').check();
    await expect.poll(() => page.locator('[data-testid=issues] button[data-code=invalid-json-value]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  test("barcodes at Wallet's proportions; a 300-character alt text and long values do not widen the page", async () => {
    const { page, errors } = await open();
    const ratio = () =>
      page.locator('[data-testid=barcode] canvas').evaluate((canvas) => canvas.getBoundingClientRect().width / canvas.getBoundingClientRect().height);
    await expect.poll(() => page.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    expect(await ratio()).toBeCloseTo(1, 1);
    const long = 'x'.repeat(300);
    const text = templateText(first.template)
      .replace('"format": "PKBarcodeFormatQR"', '"format": "PKBarcodeFormatPDF417"')
      .replace('"altText": "${memberId}"', `"altText": "${long}"`)
      .replace('"Northside Climbing"', `"${'Northside Climbing '.repeat(12)}"`);
    await replaceEditorText(page, text);
    await expect.poll(() => page.locator('[data-testid=barcode]').getAttribute('data-format')).toBe('PKBarcodeFormatPDF417');
    await expect.poll(() => page.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    expect(await ratio()).toBeGreaterThan(2.7);
    expect(await ratio()).toBeLessThan(3.3);
    await page.getByLabel('lastName', { exact: true }).fill('W'.repeat(200));
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    // One-line values end in an ellipsis, as in Wallet.
    expect(await page.locator('[data-testid=pass-preview] [data-key=member] .field-value').evaluate((element) => getComputedStyle(element).textOverflow)).toBe(
      'ellipsis',
    );
    await screenshot(page, '31-long-values-phone');

    // A message the barcode cannot hold is one issue, and the barcode says it is not drawn.
    await page.setViewportSize({ width: 1280, height: 900 });
    await replaceEditorText(page, templateText(first.template));
    await page.getByLabel('memberId', { exact: true }).fill('M'.repeat(5000));
    await expect.poll(() => page.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('error');
    const barcodeIssues = page.locator('[data-testid=issues] button[data-code^=barcode-message]');
    await expect.poll(() => barcodeIssues.count()).toBe(1);
    expect(await barcodeIssues.getAttribute('data-severity')).toBe('error');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(errors).toEqual([]);
  });

  test('on a phone the preview is one tap away, and a tapped issue brings its line fully into view', async () => {
    const { page, errors } = await open({ viewport: { width: 390, height: 844 } });
    const nav = page.locator('[data-testid=phone-nav]');
    expect(await nav.isVisible()).toBe(true);
    await nav.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(() =>
        page.locator('[data-testid=pass-preview]').evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.top < innerHeight;
        }),
      )
      .toBe(true);
    await screenshot(page, '32-phone-preview', false);

    await replaceEditorText(page, templateText(first.template).replace('"${level}"', '"${levle}"'));
    await nav.getByRole('button', { name: 'Issues' }).click();
    await page.locator('[data-testid=issues] button[data-code=undeclared-placeholder]').click();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const line = document.querySelector('.cm-activeLine')?.getBoundingClientRect();
          const bar = document.querySelector('.phone-nav')?.getBoundingClientRect().bottom ?? 0;
          return line !== undefined && line.top >= bar && line.bottom <= innerHeight;
        }),
      )
      .toBe(true);
    expect(await page.locator('.cm-activeLine').textContent()).toContain('${levle}');
    await screenshot(page, '33-phone-issue-line', false);
    expect(errors).toEqual([]);
  });

  test.each(['light', 'dark'] as const)('axe-core finds no serious violation (%s theme)', async (colorScheme) => {
    const { page, errors } = await open({ colorScheme });
    await expect.poll(() => page.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    await page.locator('.cm-content').waitFor();
    // Every panel open: the explanation, the webhook tool, the back of the pass.
    await page.locator('.explain summary').click();
    await page.locator('#webhook-heading').click();
    await page.locator('[data-testid=webhook-signature]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('[data-testid=show-back]').click();
    await page.locator('[data-testid=pass-back]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `34-everything-open-${colorScheme}`);
    expect(errors).toEqual([]);
  });
});
