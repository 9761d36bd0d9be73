import { describe, expect, test } from 'vitest';
import { chromiumAvailable, playgroundSession, sharedStateOf } from './browser.js';

describe.skipIf(!chromiumAvailable)('playground: localizations (pass.strings per language)', () => {
  const { open } = playgroundSession();

  test("a language starts from the pass's texts; its translations show in the preview in that language only", async () => {
    const { page, errors } = await open();
    const card = page.locator('[data-testid=pass-preview]');
    await page.locator('#new-language').fill('de');
    await page.locator('[data-testid=add-language]').click();
    const strings = page.locator('#strings-de');
    expect(await strings.inputValue()).toContain('"Member" = "Member";');
    // Translate two texts.
    const text = (await strings.inputValue())
      .replace('"Member" = "Member";', '"Member" = "Mitglied";')
      .replace('"Home gym" = "Home gym";', '"Home gym" = "Heimhalle";');
    await strings.fill(text);
    await expect.poll(() => card.locator('[data-key=member] .field-label').textContent()).toBe('Mitglied');
    expect(await card.locator('[data-key=home] .field-label').textContent()).toBe('Heimhalle');
    // The pass's own texts.
    await page.locator('[data-testid=preview-language]').selectOption('');
    await expect.poll(() => card.locator('[data-key=member] .field-label').textContent()).toBe('Member');
    // A second language, previewed on its own.
    await page.locator('#new-language').fill('fr');
    await page.locator('[data-testid=add-language]').click();
    await page.locator('#strings-fr').fill('"Member" = "Membre";\n');
    await expect.poll(() => card.locator('[data-key=member] .field-label').textContent()).toBe('Membre');
    await page.locator('[data-testid=preview-language]').selectOption('de');
    await expect.poll(() => card.locator('[data-key=member] .field-label').textContent()).toBe('Mitglied');
    // The link carries the translations.
    await expect.poll(() => Object.keys((sharedStateOf(page.url()) as { strings?: object } | undefined)?.strings ?? {})).toEqual(['de', 'fr']);
    expect(errors).toEqual([]);
  });

  test('a pass.strings that cannot be read is an issue that leads to its text', async () => {
    const { page, errors } = await open();
    await page.locator('#new-language').fill('es');
    await page.locator('[data-testid=add-language]').click();
    await page.locator('#strings-es').fill('"Member" = "Miembro"\n"Level" = ');
    const issue = page.locator('[data-testid=issues] button[data-source=strings]');
    await expect.poll(() => issue.count()).toBe(1);
    expect(await issue.getAttribute('data-code')).toBe('invalid-strings');
    expect(await issue.textContent()).toContain('es.lproj/pass.strings');
    await issue.click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('strings-es');
    await page.locator('#strings-es').fill('"Member" = "Miembro";\n');
    await expect.poll(() => issue.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
