import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { chromiumAvailable, playgroundSession } from './browser.js';
import { sharedHash } from './many-fields.js';
import { pngFile, solidPng } from './png.js';

/** Clicks every issue in the list and returns, per issue code, where the focus went (an element's id, or "editor"). */
async function clickEveryIssue(page: Page): Promise<string[]> {
  const buttons = page.locator('[data-testid=issues] button');
  const count = await buttons.count();
  const places: string[] = [];
  for (let index = 0; index < count; index++) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await buttons.nth(index).click();
    const code = await buttons.nth(index).getAttribute('data-code');
    const place = await page.evaluate(() => {
      const active = document.activeElement;
      if (active === null || active === document.body) return '';
      if (active.closest('.cm-editor') !== null) return 'editor';
      // A click that leaves the focus on the issue's own button found no place.
      if (active.closest('[data-testid=issues]') !== null) return '';
      return active.id;
    });
    places.push(`${code}→${place}`);
  }
  return places;
}

describe.skipIf(!chromiumAvailable)('playground: every problem Wallet refuses is listed from the first screen, each with a place', () => {
  const session = playgroundSession();
  const { open } = session;
  const codes = (page: Page) => page.locator('[data-testid=issues] button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-code')));

  test('a pass without an icon lists missing-icon as an error (packPass\'s check), not "the pass is valid"', async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    // The examples carry a stand-in icon; without it, the error signing would stop at.
    for (const path of ['icon.png', 'icon@2x.png', 'icon@3x.png']) await page.locator(`[data-testid="slot-${path}"] button`).click();
    await expect.poll(() => page.locator('[data-testid=issue-summary]').textContent()).toBe('1 error, 0 warnings');
    const icon = page.locator('[data-testid=issues] button[data-code=missing-icon]');
    expect(await icon.getAttribute('data-severity')).toBe('error');
    expect(await icon.textContent()).toContain('icon.png');
    // Its place is the icon slot's file input.
    await icon.click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('image-icon-1');
    // Given an icon, the list is empty.
    await page.locator('#image-icon-1').setInputFiles(pngFile('icon.png', solidPng(29, 29, [0, 0, 0])));
    await expect.poll(() => page.locator('[data-testid=issue-summary]').textContent()).toBe('No issues: the pass is valid.');
    expect(errors).toEqual([]);
  });

  test('the summary never says "the pass is valid" while the page starts, nor for a shared link', async () => {
    const context = await session.harness.browser.newContext();
    // Every text the summary shows, from the first render on.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { summaries: string[] }).summaries = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid=issue-summary]')?.textContent ?? '';
        if (text !== '' && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await context.newPage();
    await page.goto(session.harness.url);
    await page.locator('.cm-content').waitFor();
    await page.waitForTimeout(500);
    // The default example (with its stand-in icon) is valid, and that is the only summary shown.
    expect(await page.evaluate(() => (window as unknown as { summaries: string[] }).summaries)).toEqual(['No issues: the pass is valid.']);
    // A shared link with a bad color: its own issues from the first render.
    const coupon = examples.find((example) => example.id === 'coupon')!;
    const template = structuredClone(coupon.template) as unknown as { description: Record<string, unknown> };
    template.description['backgroundColor'] = 'red';
    const shared = await context.newPage();
    await shared.goto(`${session.harness.url}${sharedHash(template, coupon.values)}`);
    await shared.locator('.cm-content').waitFor();
    await shared.waitForTimeout(500);
    const seen = await shared.evaluate(() => (window as unknown as { summaries: string[] }).summaries);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^2 errors, /);
    await context.close();
  });

  test('a file that is not an image is an error in the Issues list, at its slot; emptying the slot clears it', async () => {
    const { page, errors } = await open();
    await page.locator('#image-thumbnail-1').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    const entry = page.locator('[data-testid=issues] button[data-code=invalid-image]');
    await expect.poll(() => entry.count()).toBe(1);
    expect(await entry.textContent()).toContain('thumbnail.png: not an image this browser can read');
    expect(await entry.getAttribute('data-severity')).toBe('error');
    await entry.click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('image-thumbnail-1');
    // A real image in the slot replaces the error.
    await page.locator('#image-thumbnail-1').setInputFiles(pngFile('thumb.png', solidPng(90, 90, [9, 9, 9])));
    await expect.poll(() => entry.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('every issue of every example, and of a broken template, takes the focus somewhere when clicked', async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    for (const example of examples) {
      await page.locator('[data-testid=example-picker]').selectOption(example.id);
      // Once its issues are listed (none but warnings: every example carries a stand-in icon).
      await expect.poll(() => page.locator('[data-testid=issue-summary]').textContent()).toMatch(/^(No issues|0 errors)/);
      const places = await clickEveryIssue(page);
      expect(places.filter((place) => place.endsWith('→'))).toEqual([]);
    }
    // A pass with problems everywhere: a bad color, a file for a slot the style hides, a field without a key.
    await page.locator('[data-testid=example-picker]').selectOption(examples[0]!.id);
    await page.locator('#image-thumbnail-1').setInputFiles(pngFile('thumb.png', solidPng(400, 400, [9, 9, 9])));
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+Home');
    const text = await page.locator('.cm-content').evaluate((element) => (element as HTMLElement).innerText);
    const broken = JSON.parse(text) as { description: Record<string, unknown> };
    broken.description['backgroundColor'] = 'red';
    broken.description['generic'] = { ...(broken.description['generic'] as object), headerFields: [{ value: 'no key' }] };
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(JSON.stringify(broken, null, 2));
    await expect.poll(async () => (await codes(page)).length).toBeGreaterThan(3);
    const places = await clickEveryIssue(page);
    expect(places.filter((place) => place.endsWith('→'))).toEqual([]);
    expect(places.some((place) => place.startsWith('image-size→image-thumbnail'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
