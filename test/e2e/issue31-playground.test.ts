import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { seriousViolations } from './axe.js';
import { chromiumAvailable, playgroundSession, replaceEditorText, screenshot } from './browser.js';
import { pngFile, solidPng } from './png.js';

// The playground's defects of issue 31, each checked the way a person meets it.

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;
const byId = (id: string) => {
  const example = examples.find((candidate) => candidate.id === id);
  if (example === undefined) throw new Error(`no example ${id}`);
  return example;
};
type Body = Record<string, unknown> & { semantics?: Record<string, unknown> };
/** An example's template with its body changed. */
function changed(id: string, change: (body: Body) => void): string {
  const template = structuredClone(byId(id).template) as unknown as { description: Body };
  change(template.description);
  return templateText(template);
}
/** For polls after a whole template or an image changed: the checks follow when the page is idle, which on a loaded machine can take seconds. */
const slow = { timeout: 10_000 };
const codes = (page: Page) => page.locator('[data-testid=issues] button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-code')));
const summary = (page: Page) => page.locator('[data-testid=issue-summary]').textContent();

/** WCAG 2 contrast ratio of two sRGB colors, written out here independently of the page. */
function contrast(a: readonly number[], b: readonly number[]): number {
  const luminance = (rgb: readonly number[]): number => {
    const [r, g, bl] = rgb.map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/** A ratio as the page writes it: rounded down, one decimal. */
const ratioText = (ratio: number): string => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;

/** The first hit-tested element at each point is the element itself (or inside it): nothing is drawn over it. */
async function uncovered(page: Page, selector: string, index: number): Promise<string[]> {
  return page.evaluate(
    ([selector, index]) => {
      const element = document.querySelectorAll(selector)[index] as HTMLElement;
      const box = element.getBoundingClientRect();
      const points = [0.1, 0.5, 0.9].flatMap((x) => [0.2, 0.8].map((y) => [box.left + box.width * x, box.top + box.height * y] as const));
      return points.flatMap(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return hit === null || hit === element || element.contains(hit) ? [] : [`${Math.round(x)},${Math.round(y)}: ${hit.outerHTML.slice(0, 60)}`];
      });
    },
    [selector, index] as const,
  );
}

describe.skipIf(!chromiumAvailable)('playground: the defects of issue 31', () => {
  const session = playgroundSession();
  const { open } = session;

  test('every example opens without an error: each carries a stand-in icon, which a shared link carries to another browser', { timeout: 90_000 }, async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    await expect.poll(() => summary(page), slow).toBe('No issues: the pass is valid.');
    expect(await page.locator('[data-testid="size-icon.png"]').textContent()).toBe('29×29');
    expect(await page.locator('[data-testid="size-icon@3x.png"]').textContent()).toBe('87×87');
    for (const example of examples) {
      await page.locator('[data-testid=example-picker]').selectOption(example.id);
      await expect.poll(() => summary(page), { ...slow, message: example.id }).toBe('No issues: the pass is valid.');
    }
    // A link made here opens, in a browser that never saw the icon, with the same icon and no "missing images".
    await expect.poll(() => new URL(page.url()).hash.startsWith('#z=')).toBe(true);
    const other = await session.harness.browser.newContext();
    const fresh = await other.newPage();
    const freshErrors: string[] = [];
    fresh.on('pageerror', (error) => freshErrors.push(error.message));
    fresh.on('console', (message) => message.type() === 'error' && freshErrors.push(message.text()));
    await fresh.goto(page.url());
    await fresh
      .locator('[data-testid=issue-summary]')
      .waitFor({ timeout: 20_000 })
      .catch(() => undefined);
    expect(freshErrors).toEqual([]);
    await expect.poll(() => fresh.locator('[data-testid=issue-summary]').textContent(), slow).toBe('No issues: the pass is valid.');
    expect(await fresh.locator('[data-testid="size-icon@2x.png"]').textContent()).toBe('58×58');
    expect(await fresh.locator('[data-testid=missing-images]').count()).toBe(0);
    await other.close();
    // Emptied, the icon is the error packPass stops at, and one click makes a stand-in again.
    for (const path of ['icon.png', 'icon@2x.png', 'icon@3x.png']) await page.locator(`[data-testid="slot-${path}"] button`).click();
    await expect.poll(() => codes(page), slow).toEqual(['missing-icon']);
    await page.locator('[data-testid=make-icon]').click();
    await expect.poll(() => summary(page), slow).toBe('No issues: the pass is valid.');
    expect(errors).toEqual([]);
  });

  test('the boarding pass example is a Google flight with its airports (not an error where the pass should be)', async () => {
    const { page, errors } = await open();
    await page.locator('[data-testid=example-picker]').selectOption('boarding-pass');
    await page.locator('[data-testid=show-google]').click();
    const card = page.locator('[data-testid=google-preview]');
    await card.waitFor();
    await expect.poll(() => card.locator('[data-testid=google-header]').textContent()).toBe('LIS → CPH');
    expect(await card.textContent()).not.toContain('No airports');
    expect(await card.getAttribute('data-type')).toBe('flight');
    expect(errors).toEqual([]);
  });

  test('the poster example shows its seating; a poster event ticket without seats is warned', async () => {
    const { page, errors } = await open();
    await page.locator('[data-testid=example-picker]').selectOption('poster-event');
    const seating = page.locator('[data-testid=poster-seating]');
    await seating.waitFor();
    expect(await seating.locator('[data-seat=section] .field-value').textContent()).toBe('B');
    expect(await seating.locator('[data-seat=row] .field-value').textContent()).toBe('4');
    expect(await seating.locator('[data-seat=seat] .field-value').textContent()).toBe('17');
    await expect.poll(() => codes(page), slow).not.toContain('poster-no-seats');
    await replaceEditorText(
      page,
      changed('poster-event', (body) => delete body.semantics!['seats']),
    );
    const warning = page.locator('[data-testid=issues] button[data-code=poster-no-seats]');
    await expect.poll(() => warning.count(), slow).toBe(1);
    expect(await warning.getAttribute('data-severity')).toBe('warning');
    expect(await warning.textContent()).toContain('seats');
    expect(await seating.count()).toBe(0);
    // Its place is the semantics in the template.
    await warning.click();
    expect(await page.evaluate(() => document.activeElement?.closest('.cm-editor') !== null)).toBe(true);
    await expect.poll(() => page.locator('.cm-activeLine').first().textContent()).toContain('"semantics"');
    // General admission (admissionLevel) is seating too.
    await replaceEditorText(
      page,
      changed('poster-event', (body) => {
        delete body.semantics!['seats'];
        body.semantics!['admissionLevel'] = 'General Admission';
      }),
    );
    await expect.poll(() => page.locator('[data-testid=poster-admission]').textContent()).toBe('General Admission');
    await expect.poll(() => codes(page), slow).not.toContain('poster-no-seats');
    expect(errors).toEqual([]);
  });

  test('poster and semantic boarding views have a Back: the Pass Details, with their links', async () => {
    const { page, errors } = await open();
    for (const id of ['poster-event', 'poster-generic']) {
      await page.locator('[data-testid=example-picker]').selectOption(id);
      await page.locator('[data-testid=poster-preview]').waitFor();
      await page.locator('[data-testid=show-back]').click();
      const back = page.locator('[data-testid=pass-back]');
      await back.waitFor();
      expect(await page.locator('[data-testid=poster-preview]').count()).toBe(0);
      expect(await back.locator('[data-testid=back-fields] a').count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Front', exact: true }).click();
      await page.locator('[data-testid=poster-preview]').waitFor();
    }
    const semantic = changed('boarding-pass', (body) => {
      body['preferredStyleSchemes'] = ['semanticBoardingPass', 'boardingPass'];
      (body['boardingPass'] as Record<string, unknown>)['backFields'] = [{ key: 'help', label: 'Help', value: 'https://air.example.com/help' }];
      Object.assign(body.semantics!, {
        departureLocationTimeZone: 'Europe/Lisbon',
        destinationLocationTimeZone: 'Europe/Copenhagen',
        originalArrivalDate: '2026-12-01T13:45:00Z',
        departureTerminal: '1',
        boardingZone: '3',
      });
    });
    await page.locator('[data-testid=example-picker]').selectOption('boarding-pass');
    await replaceEditorText(page, semantic);
    await page.locator('[data-testid=semantic-boarding-preview]').waitFor();
    await page.locator('[data-testid=show-back]').click();
    const back = page.locator('[data-testid=pass-back]');
    await back.waitFor();
    expect(await back.locator('[data-testid=back-fields] a').getAttribute('href')).toBe('https://air.example.com/help');
    expect(await page.locator('[data-testid=semantic-boarding-preview]').count()).toBe(0);
    await screenshot(page, '90-semantic-boarding-back', false);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('a store card draws CARD HOLDER and CARD NO. on one row, as Wallet does', async () => {
    const { page, errors } = await open();
    await page.locator('[data-testid=example-picker]').selectOption('store-card');
    const card = page.locator('[data-testid=pass-preview]');
    await expect.poll(() => card.getAttribute('data-style')).toBe('storeCard');
    const row = card.locator('[data-testid=secondary-fields]');
    expect(await row.locator('[data-key]').evaluateAll((fields) => fields.map((field) => field.getAttribute('data-key')))).toEqual(['owner', 'number']);
    expect(await card.locator('[data-testid=auxiliary-fields]').count()).toBe(0);
    const [holder, number] = await row.locator('[data-key]').evaluateAll((fields) => fields.map((field) => field.getBoundingClientRect().top));
    expect(holder).toBe(number);
    expect(errors).toEqual([]);
  });

  test("text and labels under WCAG contrast are warned: against the background, and against a strip image's colors", async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    await expect.poll(() => summary(page), slow).toBe('No issues: the pass is valid.');
    // A pale green label on the membership card's green: under 4.5:1 at 10 px.
    const label = [120, 170, 130] as const;
    await replaceEditorText(
      page,
      changed('membership', (body) => (body['labelColor'] = `rgb(${label.join(', ')})`)),
    );
    const warning = page.locator('[data-testid=issues] button[data-code=low-contrast]');
    await expect.poll(() => warning.count(), slow).toBe(1);
    const ratio = contrast(label, [22, 101, 52]);
    expect(ratio).toBeLessThan(4.5);
    expect(await warning.textContent()).toContain(`${ratioText(ratio)} on the background rgb(22, 101, 52)`);
    expect(await warning.textContent()).toContain('labelColor');
    expect(await warning.getAttribute('data-severity')).toBe('warning');
    await warning.click();
    expect(await page.evaluate(() => document.getSelection()?.toString() ?? '')).toContain('rgb(120, 170, 130)');
    // The coupon's labels over a strip of nearly their own color.
    await page.locator('[data-testid=example-picker]').selectOption('coupon');
    await expect.poll(() => summary(page), slow).toBe('No issues: the pass is valid.');
    await page.locator('#image-strip-1').setInputFiles(pngFile('strip.png', solidPng(375, 123, [170, 70, 40])));
    const labels = warning.filter({ hasText: 'labelColor' });
    await expect.poll(() => labels.count(), slow).toBe(1);
    expect(await labels.textContent()).toContain(`${ratioText(contrast([154, 52, 18], [170, 70, 40]))} on the strip image (average rgb(170, 70, 40))`);
    // The large primary value in the text color: 3:1 is enough for large text, and it is under that too.
    expect(await warning.filter({ hasText: 'foregroundColor' }).textContent()).toContain(
      `${ratioText(contrast([67, 20, 7], [170, 70, 40]))} on the strip image`,
    );
    await page.locator('[data-testid="slot-strip.png"] button').click();
    await expect.poll(() => warning.count(), slow).toBe(0);
    expect(errors).toEqual([]);
  });

  test('phone: nothing floats over the barcode in the sheet, nor over inputs scrolled to the bottom or top of the screen', async () => {
    const { page, errors } = await open({ viewport: { width: 390, height: 844 } });
    await page.locator('[data-testid=example-picker]').selectOption('store-card');
    await expect.poll(() => page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('storeCard');
    // Inputs of the values form, each scrolled to the bottom and to the top edge of the screen.
    const controls = '[data-testid=values-form] input, #issuer-heading ~ * input';
    const count = await page.locator(controls).count();
    expect(count).toBeGreaterThan(4);
    for (let index = 0; index < count; index++) {
      for (const block of ['end', 'start'] as const) {
        await page.evaluate(([selector, index, block]) => (document.querySelectorAll(selector)[index] as HTMLElement).scrollIntoView({ block }), [
          controls,
          index,
          block,
        ] as const);
        expect({ index, block, covered: await uncovered(page, controls, index) }).toEqual({ index, block, covered: [] });
      }
    }
    // The pass's sheet: its barcode, scrolled to the sheet's bottom, is whole on screen.
    await page.locator('[data-testid=show-pass]').click();
    const sheet = page.locator('[data-testid=preview-sheet]');
    await sheet.waitFor();
    await expect.poll(() => sheet.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    await sheet.locator('[data-testid=barcode] canvas').evaluate((canvas) => canvas.scrollIntoView({ block: 'end' }));
    expect(await uncovered(page, '[data-testid=preview-sheet] [data-testid=barcode] canvas', 0)).toEqual([]);
    // The sheet reaches up to the section bar, not over the button that hides it.
    expect(await uncovered(page, '[data-testid=show-pass]', 0)).toEqual([]);
    expect(await page.locator('[data-testid=show-pass]').textContent()).toBe('Hide the pass');
    // … also at the top of the page, where the bar sits lower, under the page's header.
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(() => uncovered(page, '[data-testid=show-pass]', 0)).toEqual([]);
    await screenshot(page, '91-phone-sheet-barcode', false);
    expect(errors).toEqual([]);
  });

  test('"Add language" starts pass.strings with the template\'s own texts, not one holder\'s values', async () => {
    const { page, errors } = await open();
    await page.locator('#new-language').fill('de');
    await page.locator('[data-testid=add-language]').click();
    const strings = await page.locator('#strings-de').inputValue();
    for (const text of ['Member', 'Member no.', 'Since', 'Home gym', 'Terms', 'Show this card at the front desk. Not transferable.', 'Northside Climbing']) {
      expect(strings).toContain(`"${text}" = "${text}";`);
    }
    for (const value of ['Grace Hopper', 'NC-004217', 'Gold', '2019', 'Harbour Street', '2027-03-31']) expect(strings).not.toContain(value);
    expect(errors).toEqual([]);
  });

  test('the theme button keeps one name, its pressed state saying whether the dark theme is on', async () => {
    const { page, errors } = await open();
    const toggle = page.locator('[data-testid=theme-toggle]');
    expect(await page.getByRole('button', { name: 'Dark theme', exact: true, pressed: false }).count()).toBe(1);
    await toggle.click();
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    expect(await page.getByRole('button', { name: 'Dark theme', exact: true, pressed: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /Light theme/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('each paste box for the signing files has its own name', async () => {
    const { page, errors } = await open();
    // The names a screen reader announces (the accessibility tree's, not the markup's).
    const boxes = page.locator('#package-heading').locator('xpath=..').locator('textarea');
    expect(await boxes.count()).toBe(3);
    const names: string[] = [];
    for (let index = 0; index < 3; index++) names.push(/textbox "([^"]*)"/.exec(await boxes.nth(index).ariaSnapshot())?.[1] ?? '');
    expect(new Set(names).size).toBe(3);
    for (const [index, what] of ['Pass Type ID certificate', 'Private key', 'Apple WWDR intermediate'].entries()) {
      expect(names[index]).toMatch(/^or paste PEM/);
      expect(names[index]).toContain(what);
    }
    expect(errors).toEqual([]);
  });

  test('a screen reader hears each label with its value, and the barcode with its message', async () => {
    const { page, errors } = await open();
    await expect.poll(() => page.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    const front = await page.locator('[data-testid=pass-preview]').ariaSnapshot();
    for (const [label, value] of [
      ['Level', 'Gold'],
      ['Member', 'Grace Hopper'],
      ['Member no.', 'NC-004217'],
      ['Since', '2019'],
      ['Home gym', 'Harbour Street'],
      ['Valid until', '2027-03-31'],
    ] as const) {
      // Each term followed at once by its definition (the snapshot quotes values that look like numbers).
      expect(front).toMatch(new RegExp(`- term: ${label.replace('.', '\\.')}\\n\\s*- definition: "?${value}"?\\n`));
    }
    expect(front).toMatch(/img "QR code: member:NC-004217"/);
    // The poster and the semantic boarding pass too.
    await page.locator('[data-testid=example-picker]').selectOption('poster-event');
    await expect.poll(() => page.locator('[data-testid=poster-preview] [data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    const poster = await page.locator('[data-testid=poster-preview]').ariaSnapshot();
    expect(poster).toMatch(/- term: Seat\n\s*- definition: "?17"?\n/);
    expect(poster).toMatch(/img "QR code: TCK-2026-000913"/);
    // (The boarding pass example first, for its values.)
    await page.locator('[data-testid=example-picker]').selectOption('boarding-pass');
    await replaceEditorText(
      page,
      changed('boarding-pass', (body) => {
        body['preferredStyleSchemes'] = ['semanticBoardingPass', 'boardingPass'];
        Object.assign(body.semantics!, {
          departureLocationTimeZone: 'Europe/Lisbon',
          destinationLocationTimeZone: 'Europe/Copenhagen',
          originalArrivalDate: '2026-12-01T13:45:00Z',
          departureTerminal: '1',
          boardingZone: '3',
        });
      }),
    );
    const boarding = page.locator('[data-testid=semantic-boarding-preview]');
    await boarding.waitFor();
    const tree = await boarding.ariaSnapshot();
    expect(tree).toMatch(/- term: Gate\n\s*- definition: B12\n/);
    expect(tree).toMatch(/- term: Passenger\n\s*- definition: Ada Lovelace\n/);
    expect(tree).toMatch(/img "Aztec code: K7Q2ZD\|EA815\|23A"/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
