import { describe, expect, test } from 'vitest';
import { seriousViolations } from './axe.js';
import { chromiumAvailable, playgroundSession } from './browser.js';

describe.skipIf(!chromiumAvailable)('playground: axe-core on the new views (posters, Google Wallet, Pass Details, localizations, the phone sheet)', () => {
  const { open } = playgroundSession();

  test.each(['light', 'dark'] as const)(
    'no serious violation in the poster, Google and Pass Details views, with a language (%s theme)',
    async (colorScheme) => {
      const { page, errors } = await open({ colorScheme });
      await page.locator('.cm-content').waitFor();
      await page.locator('[data-testid=google-losses]').waitFor();
      await page.locator('[data-testid=google-losses] summary').click();
      await page.locator('#new-language').fill('de');
      await page.locator('[data-testid=add-language]').click();
      await page.locator('[data-testid=example-picker]').selectOption('poster-event');
      await page.locator('[data-testid=poster-preview]').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.locator('[data-testid=example-picker]').selectOption('membership');
      await page.locator('[data-testid=show-both]').click();
      await page.locator('[data-testid=google-preview]').waitFor();
      await page.locator('[data-testid=show-back]').click();
      await page.locator('[data-testid=pass-back]').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  test('no serious violation with the phone sheet open', async () => {
    const { page, errors } = await open({ viewport: { width: 390, height: 844 } });
    await page.locator('[data-testid=show-pass]').click();
    await page.locator('[data-testid=preview-sheet]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
