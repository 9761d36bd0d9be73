import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable, playgroundSession, replaceEditorText, screenshot } from './browser.js';

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;

/** A template with these style fields and no placeholders. */
function withFields(style: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return templateText({
    id: 1,
    name: 'Layout test',
    formatVersion: 1,
    passType: 'pass.com.example.layout',
    description: { logoText: 'Layout', backgroundColor: 'rgb(20, 20, 60)', foregroundColor: 'rgb(255, 255, 255)', ...extra, [style]: fields },
    placeholder: [],
  });
}

describe.skipIf(!chromiumAvailable)("playground: Wallet's layout as Wallet draws it", () => {
  const session = playgroundSession();
  const card = (page: Page) => page.locator('[data-testid=pass-preview]');

  /** The playground in a browser set to a time zone and locale. */
  async function openIn(timezoneId: string): Promise<Page> {
    const context = await session.harness.browser.newContext({ timezoneId, locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(session.harness.url);
    await page.locator('[data-testid=pass-preview]').waitFor();
    await page.locator('.cm-content').waitFor();
    return page;
  }

  test('fields in a row are sized by their content: the default example cuts nothing, and "2019" takes less room than "Harbour Street"', async () => {
    const { page, errors } = await session.open();
    const row = card(page).locator('[data-testid=secondary-fields]');
    const width = (key: string) => row.locator(`[data-key=${key}]`).evaluate((element) => element.getBoundingClientRect().width);
    expect(await width('since')).toBeLessThan((await width('home')) * 0.6);
    const cut = await card(page)
      .locator('.field-value, .field-label')
      .evaluateAll((parts) => parts.filter((part) => part.scrollWidth > part.clientWidth + 1).map((part) => part.textContent));
    expect(cut).toEqual([]);
    await page.waitForTimeout(500);
    expect(await page.locator('[data-testid=cut-note]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('a value that does not fit is flagged on the front and listed as an issue that leads to it', async () => {
    const { page, errors } = await session.open();
    await page.getByLabel('gym', { exact: true }).fill('The Harbour Street Climbing and Bouldering Centre, Upper Level');
    await expect.poll(() => page.locator('[data-testid=cut-note]').textContent()).toContain('Home gym');
    const issue = page.locator('[data-testid=issues] button[data-code=value-cut]');
    await expect.poll(() => issue.count()).toBe(1);
    expect(await issue.getAttribute('data-severity')).toBe('warning');
    await issue.click();
    expect(await page.evaluate(() => document.activeElement?.closest('.cm-editor') !== null)).toBe(true);
    expect(await page.locator('.cm-activeLine').textContent()).toContain('${gym}');
    // Shortened again: the note and the issue go.
    await page.getByLabel('gym', { exact: true }).fill('Harbour St');
    await expect.poll(() => issue.count()).toBe(0);
    expect(await page.locator('[data-testid=cut-note]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('coupons and store cards without a strip have no band behind the primary fields', async () => {
    const { page, errors } = await session.open();
    for (const id of ['coupon', 'store-card']) {
      await page.locator('[data-testid=example-picker]').selectOption(id);
      await expect.poll(() => card(page).getAttribute('data-style')).toBe(id === 'coupon' ? 'coupon' : 'storeCard');
      expect(await card(page).locator('.strip').count()).toBe(0);
      const backgrounds = await card(page)
        .locator('[data-testid=primary-fields]')
        .evaluate((row) => {
          const found: string[] = [];
          for (let element: Element | null = row; element !== null && !element.classList.contains('pass'); element = element.parentElement)
            found.push(getComputedStyle(element).backgroundColor);
          return found;
        });
      expect(backgrounds.every((color) => color === 'rgba(0, 0, 0, 0)')).toBe(true);
      await screenshot(page, `42-${id}-no-strip`, false);
    }
    expect(errors).toEqual([]);
  });

  test('the back is the Pass Details list, with URLs, phone numbers, e-mail addresses and <a href> as links (and nothing else)', async () => {
    const { page, errors } = await session.open();
    await page.locator('.cm-content').waitFor();
    await replaceEditorText(
      page,
      withFields(
        'generic',
        {
          primaryFields: [{ key: 'name', label: 'Name', value: 'Ada' }],
          backFields: [
            { key: 'web', label: 'Website', value: 'See https://example.com/help, or www.example.org.' },
            { key: 'phone', label: 'Phone', value: 'Call +1 (408) 555-0100 any time' },
            { key: 'mail', label: 'E-mail', value: 'help@example.com' },
            {
              key: 'html',
              label: 'Terms',
              value: 'Terms',
              attributedValue: 'Read <a href="https://example.com/terms">the terms</a> and <a href="javascript:alert(1)">this</a>.',
            },
            { key: 'plain', label: 'No detectors', value: 'https://example.com/not-a-link', dataDetectorTypes: [] },
          ],
        },
        { organizationName: 'Example Inc.' },
      ),
    );
    await expect.poll(() => card(page).locator('[data-testid=logo-text]').textContent()).toBe('Layout');
    await page.locator('[data-testid=show-back]').click();
    const back = page.locator('[data-testid=pass-back]');
    await back.waitFor();
    expect(await back.locator('.details-title').textContent()).toBe('Pass Details');
    const links = await back
      .locator('[data-testid=back-fields] a')
      .evaluateAll((anchors) => anchors.map((anchor) => [anchor.textContent, anchor.getAttribute('href')]));
    expect(links).toEqual([
      ['https://example.com/help', 'https://example.com/help'],
      ['www.example.org', 'https://www.example.org'],
      ['+1 (408) 555-0100', 'tel:+14085550100'],
      ['help@example.com', 'mailto:help@example.com'],
      ['the terms', 'https://example.com/terms'],
    ]);
    expect(await back.locator('[data-key=html]').textContent()).toContain('Read the terms and this.');
    expect(await back.locator('[data-key=plain] a').count()).toBe(0);
    expect(await back.textContent()).toContain('Remove Pass');
    await screenshot(page, '43-pass-details', false);
    expect(errors).toEqual([]);
  });

  test("dates and numbers as Wallet formats them; ignoresTimeZone keeps the event's own time", async () => {
    const page = await openIn('Europe/Berlin');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await replaceEditorText(
      page,
      withFields('eventTicket', {
        primaryFields: [{ key: 'show', label: 'Show', value: '2026-12-01T19:00:00-05:00', timeStyle: 'PKDateStyleShort', ignoresTimeZone: true }],
        secondaryFields: [
          { key: 'local', label: 'Here', value: '2026-12-01T19:00:00-05:00', timeStyle: 'PKDateStyleShort' },
          { key: 'day', label: 'Day', value: '2026-12-01T19:00:00-05:00', dateStyle: 'PKDateStyleMedium', ignoresTimeZone: true },
        ],
        auxiliaryFields: [
          { key: 'price', label: 'Price', value: 12.5, currencyCode: 'EUR' },
          { key: 'off', label: 'Off', value: 0.25, numberStyle: 'PKNumberStylePercent' },
          { key: 'count', label: 'Count', value: 1234567 },
        ],
      }),
    );
    const value = (key: string) => card(page).locator(`[data-key=${key}] .field-value`).textContent();
    await expect.poll(() => value('show')).toBe('7:00 PM');
    expect(await value('local')).toBe('1:00 AM');
    expect(await value('day')).toBe('Dec 1, 2026');
    expect(await value('price')).toBe('€12.50');
    expect(await value('off')).toBe('25%');
    expect(await value('count')).toBe('1,234,567');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
