import { deflateRawSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { chromiumAvailable, playgroundSession } from './browser.js';

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;
const byId = (id: string) => {
  const example = examples.find((candidate) => candidate.id === id);
  if (example === undefined) throw new Error(`no example ${id}`);
  return example;
};

describe.skipIf(!chromiumAvailable)('playground: small defects', () => {
  const session = playgroundSession();
  const { open } = session;

  test('the images hint names the style with the right article ("an event ticket", not "a eventTicket pass")', async () => {
    const { page, errors } = await open();
    const hint = page.locator('[data-testid=images-panel] > .hint');
    expect(await hint.textContent()).toContain("Apple's guidance for a generic pass in pixels");
    await page.locator('[data-testid=example-picker]').selectOption('event-ticket');
    await expect.poll(() => hint.textContent()).toContain("Apple's guidance for an event ticket in pixels");
    expect(await hint.textContent()).not.toContain('eventTicket');
    expect(errors).toEqual([]);
  });

  test('the inspector does not claim a chain was checked for a file that is not a package', async () => {
    const { page, errors } = await open();
    await page
      .locator('[data-testid=inspect-file]')
      .setInputFiles({ name: 'junk.pkpass', mimeType: 'application/vnd.apple.pkpass', buffer: Buffer.from('not a zip') });
    await expect.poll(() => page.locator('[data-testid=inspection-issues] li').first().getAttribute('data-code')).toBe('invalid-zip');
    const chain = await page.locator('[data-testid=inspection-chain]').textContent();
    expect(chain).toBe('No chain checked: the package has no signature that could be read.');
    expect(errors).toEqual([]);
  });

  test('the phone section bar fits the width of small phones (no sideways overflow)', async () => {
    for (const width of [320, 360, 375, 390, 412]) {
      const { page, errors } = await open({ viewport: { width, height: 800 } });
      const nav = page.locator('[data-testid=phone-nav]');
      const [scroll, client] = await nav.evaluate((element) => [element.scrollWidth, element.clientWidth]);
      expect({ width, overflow: scroll - client }).toEqual({ width, overflow: 0 });
      // Every button whole inside the bar.
      const clipped = await nav.evaluate((element) => {
        const bar = element.getBoundingClientRect();
        return [...element.querySelectorAll('button')].filter((button) => {
          const box = button.getBoundingClientRect();
          return box.left < bar.left - 0.5 || box.right > bar.right + 0.5 || button.scrollWidth > button.clientWidth;
        }).length;
      });
      expect(clipped).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  test('arrow keys on the example picker browse without replacing the template; Enter or Load loads', async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    const picker = page.locator('[data-testid=example-picker]');
    const logo = page.locator('[data-testid=pass-preview] [data-testid=logo-text]');
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    // The selection moved, the template did not.
    expect(await picker.inputValue()).toBe(examples[2]!.id);
    await page.waitForTimeout(300);
    expect(await logo.textContent()).toBe('Northside Climbing');
    expect(await page.locator('.cm-content').textContent()).toContain('Northside Climbing');
    expect(await page.locator('[data-testid=load-example]').textContent()).toContain(`Load ${examples[2]!.title}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.cm-content').textContent()).not.toContain('Northside Climbing');
    expect(await page.locator('[data-testid=load-example]').count()).toBe(0);
    // An edited template survives browsing too.
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' ');
    await expect.poll(() => picker.inputValue()).toBe('');
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(300);
    expect(await picker.inputValue()).not.toBe('');
    await expect.poll(() => page.evaluate(() => document.querySelector('.cm-content')?.textContent?.endsWith(' '))).toBe(true);
    // The Load button loads the one chosen.
    const chosen = await picker.inputValue();
    await page.locator('[data-testid=load-example]').click();
    await expect.poll(() => picker.inputValue()).toBe(chosen);
    // A pointer choice loads at once, as before.
    await picker.selectOption('coupon');
    await expect.poll(() => page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('coupon');
    expect(errors).toEqual([]);
  });

  test('a share link cut by 3 characters recovers what can be read and says what was lost', async () => {
    const example = byId('boarding-pass');
    // (A cut of 3 characters can fall in the deflate stream's last padding bits and lose nothing; with this state it loses the closing bytes.)
    const state = {
      template: templateText(example.template),
      values: example.values,
      issuer: { organizationName: 'Cut Airlines', teamIdentifier: 'ABCDE12345' },
    };
    const hash = deflateRawSync(JSON.stringify(state)).toString('base64url');
    const { page, errors } = await open({ url: `${session.harness.url}#z=${hash.slice(0, -3)}` });
    const problem = page.locator('[data-testid=link-problem]');
    await expect.poll(() => problem.textContent()).toContain('This link is cut short');
    expect(await problem.textContent()).toContain('Recovered: the template, the values');
    // The template came back whole: the preview is the boarding pass.
    await expect.poll(() => page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('boardingPass');
    expect(await page.locator('.cm-content').textContent()).toContain(String((example.template.description as { logoText?: string }).logoText ?? ''));
    // Cut inside the template: the readable part is in the editor, and the page says so.
    const inside = deflateRawSync(JSON.stringify(state)).toString('base64url');
    // (No pass can be built from half a template, so the page is opened without waiting for a preview.)
    const context = await session.harness.browser.newContext();
    const early = await context.newPage();
    const earlyErrors: string[] = [];
    early.on('pageerror', (error) => earlyErrors.push(error.message));
    await early.goto(`${session.harness.url}#z=${inside.slice(0, Math.floor(inside.length / 2))}`);
    // A fresh browser context boots the whole page: give it the time a loaded machine needs.
    await expect.poll(() => early.locator('[data-testid=link-problem]').textContent(), { timeout: 15_000 }).toContain('inside the template');
    await expect.poll(() => early.locator('[data-testid=issues] button[data-code=invalid-json]').count(), { timeout: 15_000 }).toBe(1);
    expect(await early.locator('.cm-content').textContent()).toContain('"passType"');
    await context.close();
    expect([...errors, ...earlyErrors]).toEqual([]);
  });

  test("an issue's tooltip in the editor is not cut by the editor's box", async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(templateText(byId('membership').template).replace('"${level}"', '"${levle}"'));
    const underline = page.locator('.cm-lintRange-error').first();
    await underline.waitFor();
    await underline.hover();
    const tooltip = page.locator('.cm-tooltip-hover');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toContain('levle');
    // Placed in the page, outside the editor's contained box.
    expect(await tooltip.evaluate((element) => element.closest('.editor') === null)).toBe(true);
    expect(errors).toEqual([]);
  });

  test('a pasted private key is drawn masked, and can be shown on request', async () => {
    const { page, errors } = await open();
    const key = page.locator('#key-pem');
    await key.fill('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----');
    expect(await key.evaluate((element) => getComputedStyle(element).getPropertyValue('-webkit-text-security'))).toBe('disc');
    // The certificate (public) is not masked.
    expect(await page.locator('#certificate-pem').evaluate((element) => getComputedStyle(element).getPropertyValue('-webkit-text-security'))).toBe('none');
    await page.locator('[data-testid=show-key]').check();
    expect(await key.evaluate((element) => getComputedStyle(element).getPropertyValue('-webkit-text-security'))).toBe('none');
    expect(errors).toEqual([]);
  });
});
