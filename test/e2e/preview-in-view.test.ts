import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable, playgroundSession, screenshot } from './browser.js';
import { manyFields, sharedHash } from './many-fields.js';

/** How much of the element is inside the viewport, 0 to 1. */
async function visibleShare(page: Page, locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (box === null || viewport === null || box.height === 0) return 0;
  const top = Math.max(0, box.y);
  const bottom = Math.min(viewport.height, box.y + box.height);
  return Math.max(0, bottom - top) / box.height;
}

describe.skipIf(!chromiumAvailable)('playground: the pass stays in view while editing', () => {
  const session = playgroundSession();
  const { template, values } = manyFields(200);

  test('desktop: with 200 fields, typing in the 4th and the 150th value keeps the whole pass in view beside the form', async () => {
    const { page, errors } = await session.open({ url: `${session.harness.url}${sharedHash(template, values)}` });
    const card = page.locator('[data-testid=pass-preview]');
    for (const index of [3, 150]) {
      const input = page.getByLabel(`v${index}`, { exact: true });
      await input.scrollIntoViewIfNeeded();
      await input.click();
      await page.keyboard.press('End');
      await page.keyboard.type('!');
      expect(await visibleShare(page, card)).toBe(1);
      // Beside the form, not under it.
      const [cardBox, inputBox] = [await card.boundingBox(), await input.boundingBox()];
      expect(cardBox!.x).toBeGreaterThan(inputBox!.x + inputBox!.width);
    }
    // The card follows the typing: the primary field is v0; the back lists the others.
    await page.getByLabel('v0', { exact: true }).fill('Typed here');
    await expect.poll(() => card.locator('[data-testid=primary-fields]').textContent()).toContain('Typed here');
    expect(await visibleShare(page, card)).toBe(1);
    await screenshot(page, '40-sticky-preview', false);
    expect(errors).toEqual([]);
  });

  test('phone: a button brings the pass up over the page at any moment; closing it leaves the scroll and the focus where they were', async () => {
    const { page, errors } = await session.open({ url: `${session.harness.url}${sharedHash(template, values)}`, viewport: { width: 390, height: 844 } });
    const input = page.getByLabel('v120', { exact: true });
    await input.scrollIntoViewIfNeeded();
    await input.click();
    await page.keyboard.press('End');
    await page.keyboard.type('?');
    const scrolled = await page.evaluate(() => scrollY);
    expect(scrolled).toBeGreaterThan(2000);
    // The main preview is far away; the button is on screen.
    expect(await visibleShare(page, page.locator('[data-testid=pass-preview]'))).toBe(0);
    const button = page.locator('[data-testid=show-pass]');
    expect(await visibleShare(page, button)).toBe(1);
    await button.click();
    const sheetCard = page.locator('[data-testid=preview-sheet] [data-testid=sheet-preview]');
    await sheetCard.waitFor();
    expect(await visibleShare(page, sheetCard)).toBeGreaterThan(0.5);
    expect(await page.evaluate(() => scrollY)).toBe(scrolled);
    await screenshot(page, '41-phone-sheet', false);
    // Escape closes it; the focus is back in the value, nothing moved.
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=preview-sheet]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await input.getAttribute('id'));
    expect(await page.evaluate(() => scrollY)).toBe(scrolled);
    // Open again and keep typing in the value (the sheet does not block the page): the sheet follows.
    await button.click();
    await sheetCard.waitFor();
    await page.getByLabel('v0', { exact: true }).evaluate((element: HTMLInputElement) => element.focus({ preventScroll: true }));
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Live');
    await expect.poll(() => sheetCard.locator('[data-testid=primary-fields]').textContent()).toContain('Live');
    await page.locator('[data-testid=close-sheet]').click();
    expect(await page.locator('[data-testid=preview-sheet]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('desktop: the phone button and sheet are not shown', async () => {
    const { page, errors } = await session.open();
    expect(await page.locator('[data-testid=show-pass]').isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });
});
