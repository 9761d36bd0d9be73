import { describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { chromiumAvailable, playgroundSession, replaceEditorText, screenshot } from './browser.js';
import { pngFile, solidPng } from './png.js';

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;

describe.skipIf(!chromiumAvailable)('playground: poster layouts (iOS 18 event ticket, iOS 27 posterGeneric) and their fallbacks', () => {
  const { open } = playgroundSession();

  test('a poster event ticket is drawn from its semantic tags and artwork; the switch shows what an older iPhone shows', async () => {
    const { page, errors } = await open();
    await page.locator('[data-testid=example-picker]').selectOption('poster-event');
    const poster = page.locator('[data-testid=poster-preview]');
    await expect.poll(() => poster.getAttribute('data-poster')).toBe('posterEventTicket');
    const title = poster.locator('[data-testid=poster-title]');
    expect(await title.locator('.poster-event-name').textContent()).toBe('The Analytical Engines — Winter Tour');
    expect(await title.locator('.poster-venue').textContent()).toBe('City Hall · Main Hall, Sheffield');
    expect(await title.locator('.poster-date').textContent()).toContain('7:00 PM');
    expect(await poster.locator('.pass-logo-text').textContent()).toBe('City Hall Live');
    // The poster's own image slots are offered, and the artwork fills the poster.
    await page.locator('#image-artwork-2').setInputFiles(pngFile('artwork.png', solidPng(716, 900, [160, 40, 90])));
    await poster.locator('[data-testid=image-artwork]').waitFor();
    await page.locator('#image-secondaryLogo-2').setInputFiles(pngFile('secondary.png', solidPng(120, 60, [250, 250, 250])));
    await poster.locator('[data-testid=image-secondaryLogo]').waitFor();
    await expect.poll(() => page.locator('[data-testid=poster-preview] [data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    await screenshot(page, '50-poster-event', false);
    // An older iPhone: the ordinary event ticket.
    await page.locator('[data-testid=show-fallback]').click();
    expect(await poster.count()).toBe(0);
    expect(await page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('eventTicket');
    await page.locator('[data-testid=show-poster]').click();
    await poster.waitFor();
    expect(errors).toEqual([]);
  });

  test('without a required semantic tag Wallet cannot draw the poster: the page says which and shows the event ticket', async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    const example = examples.find((candidate) => candidate.id === 'poster-event')!;
    const template = structuredClone(example.template) as unknown as { description: { semantics: Record<string, unknown> } };
    delete template.description.semantics['venueRoom'];
    delete template.description.semantics['performerNames'];
    await replaceEditorText(page, templateText(template));
    await expect.poll(() => page.locator('[data-testid=poster-fallback-note]').textContent()).toContain('venueRoom, performerNames');
    expect(await page.locator('[data-testid=poster-preview]').count()).toBe(0);
    expect(await page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('eventTicket');
    expect(errors).toEqual([]);
  });

  test('a posterGeneric pass is drawn from its own fields; older iPhones get its generic layout', async () => {
    const { page, errors } = await open();
    await page.locator('[data-testid=example-picker]').selectOption('poster-generic');
    const poster = page.locator('[data-testid=poster-preview]');
    await expect.poll(() => poster.getAttribute('data-poster')).toBe('posterGeneric');
    expect(await poster.locator('[data-key=member] .field-value').textContent()).toBe('Ada Lovelace');
    expect(await poster.locator('.poster-footer [data-key=guests] .field-value').textContent()).toBe('2');
    expect(await poster.locator('.poster-head [data-key=tier] .field-value').textContent()).toBe('Patron');
    await page.locator('#image-primaryLogo-2').setInputFiles(pngFile('primary.png', solidPng(300, 90, [255, 237, 213])));
    await poster.locator('[data-testid=image-primaryLogo]').waitFor();
    await screenshot(page, '51-poster-generic', false);
    await page.locator('[data-testid=show-fallback]').click();
    expect(await page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('generic');
    expect(await page.locator('[data-testid=show-fallback]').textContent()).toContain('iOS 26 and earlier');
    expect(errors).toEqual([]);
  });

  /** The poster example's template with `change` applied to its body. */
  function posterTemplate(change: (body: Record<string, unknown> & { eventTicket: Record<string, unknown> }) => void): string {
    const example = examples.find((candidate) => candidate.id === 'poster-event')!;
    const template = structuredClone(example.template) as unknown as { description: Record<string, unknown> & { eventTicket: Record<string, unknown> } };
    change(template.description);
    return templateText(template);
  }

  test('below a poster event ticket, its additionalInfoFields are the Additional Info section, links live; an older iPhone shows none', async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    await replaceEditorText(
      page,
      posterTemplate((body) => {
        body.eventTicket['additionalInfoFields'] = [
          { key: 'entry', label: 'Entry', value: 'Doors open one hour before the show.' },
          { key: 'access', label: 'Access', value: 'Step-free entry: https://tickets.example.com/access' },
        ];
      }),
    );
    const info = page.locator('[data-testid=additional-info]');
    await info.waitFor();
    expect(await info.locator('.guide-title').textContent()).toBe('Additional Info');
    expect(await info.locator('[data-key=entry] dt').textContent()).toBe('Entry');
    expect(await info.locator('[data-key=entry] dd').textContent()).toBe('Doors open one hour before the show.');
    expect(await info.locator('[data-key=access] dd a').getAttribute('href')).toBe('https://tickets.example.com/access');
    // Drawn below the poster, not on it.
    const posterBox = (await page.locator('[data-testid=poster-preview]').boundingBox())!;
    expect((await info.boundingBox())!.y).toBeGreaterThanOrEqual(posterBox.y + posterBox.height);
    await page.locator('[data-testid=show-fallback]').click();
    await page.locator('[data-testid=pass-preview]').waitFor();
    expect(await page.locator('[data-testid=additional-info]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('a multi-event ticket lists its upcoming events below the poster: name, date in the event\'s time zone, venue; "TBD" without a date', async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    await replaceEditorText(
      page,
      posterTemplate((body) => {
        body['upcomingPassInformation'] = [
          {
            type: 'event',
            identifier: 'night-2',
            name: 'Second night',
            isActive: true,
            dateInformation: { date: '2026-12-02T19:30:00Z', timeZone: 'America/New_York' },
            semantics: { venueName: 'Town Hall' },
          },
          { type: 'event', identifier: 'encore', name: 'Encore show' },
        ];
      }),
    );
    const upcoming = page.locator('[data-testid=upcoming-events]');
    await upcoming.waitFor();
    expect(await upcoming.locator('.guide-title').textContent()).toBe('Upcoming Events');
    const second = upcoming.locator('[data-identifier=night-2]');
    expect(await second.locator('.upcoming-name').textContent()).toBe('Second night');
    // 19:30 UTC is 2:30 PM in New York.
    expect(await second.locator('.upcoming-date').textContent()).toMatch(/^Dec 2, 2026,? (at )?2:30\sPM$/);
    expect(await second.locator('.upcoming-venue').textContent()).toBe('Town Hall');
    expect(await upcoming.locator('[data-identifier=encore] .upcoming-date').textContent()).toBe('TBD');
    expect(errors).toEqual([]);
  });

  test('a venue map added to a poster event ticket is drawn in its event guide', async () => {
    const { page, errors } = await open();
    await page.locator('[data-testid=example-picker]').selectOption('poster-event');
    await page.locator('[data-testid=poster-preview]').waitFor();
    expect(await page.locator('[data-testid=event-guide]').count()).toBe(0);
    await page.locator('#image-venueMap-2').setInputFiles(pngFile('venue.png', solidPng(600, 400, [30, 120, 60])));
    const guide = page.locator('[data-testid=event-guide]');
    await guide.locator('[data-testid=image-venueMap]').waitFor();
    expect(await guide.locator('figcaption').textContent()).toBe('Venue Map');
    expect(await guide.locator('[data-testid=image-venueMap]').evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(600);
    await screenshot(page, '52-poster-event-guide', false);
    expect(errors).toEqual([]);
  });

  test("a poster event ticket's footer shows its seating from the semantic tags: admission level, section, row and seat in the section's color", async () => {
    const { page, errors } = await open();
    await page.locator('[data-testid=example-picker]').selectOption('poster-event');
    await page.locator('[data-testid=poster-preview]').waitFor();
    // The example's seat: section, row and seat, without a section color.
    expect(await page.locator('[data-testid=poster-seating] [data-seat]').evaluateAll((fields) => fields.map((field) => field.textContent))).toEqual([
      'SectionB',
      'Row4',
      'Seat17',
    ]);
    await replaceEditorText(
      page,
      posterTemplate((body) => {
        const semantics = body['semantics'] as Record<string, unknown>;
        semantics['admissionLevel'] = 'Stalls';
        semantics['seats'] = [{ seatSection: 'B', seatRow: '3', seatNumber: '17', seatSectionColor: 'rgb(220, 38, 38)' }];
      }),
    );
    const seating = page.locator('[data-testid=poster-preview] .poster-footer [data-testid=poster-seating]');
    await seating.waitFor();
    expect(await seating.locator('.poster-admission').textContent()).toBe('Stalls');
    expect(await seating.locator('[data-seat]').evaluateAll((fields) => fields.map((field) => field.textContent))).toEqual(['SectionB', 'Row3', 'Seat17']);
    expect(await seating.evaluate((element) => getComputedStyle(element).borderLeftColor)).toBe('rgb(220, 38, 38)');
    expect(errors).toEqual([]);
  });
});
