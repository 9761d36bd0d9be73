import { describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { seriousViolations } from './axe.js';
import { chromiumAvailable, playgroundSession, replaceEditorText, screenshot } from './browser.js';

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;

/** The boarding pass example asking for iOS 26's semantic layout, with every tag Wallet requires (and `change` applied). */
function semanticBoarding(
  change: (body: Record<string, unknown> & { semantics: Record<string, unknown>; boardingPass: Record<string, unknown> }) => void = () => {},
): string {
  const example = examples.find((candidate) => candidate.id === 'boarding-pass')!;
  const template = structuredClone(example.template) as unknown as {
    description: Record<string, unknown> & { semantics: Record<string, unknown>; boardingPass: Record<string, unknown> };
  };
  Object.assign(template.description, {
    preferredStyleSchemes: ['semanticBoardingPass', 'boardingPass'],
    semantics: {
      airlineCode: 'EA',
      flightNumber: 815,
      departureAirportCode: 'LIS',
      departureCityName: 'Lisbon',
      departureLocationTimeZone: 'Europe/Lisbon',
      destinationAirportCode: 'CPH',
      destinationCityName: 'Copenhagen',
      destinationLocationTimeZone: 'Europe/Copenhagen',
      originalBoardingDate: '2026-12-01T09:25:00Z',
      originalDepartureDate: '2026-12-01T09:55:00Z',
      originalArrivalDate: '2026-12-01T13:45:00Z',
      passengerName: { givenName: 'Ada', familyName: 'Lovelace' },
      departureGate: 'B12',
      departureTerminal: '1',
      boardingZone: '3',
      seats: [{ seatRow: '23', seatNumber: 'A' }],
    },
  });
  change(template.description);
  return templateText(template);
}

describe.skipIf(!chromiumAvailable)('playground: the iOS 26 semantic boarding pass and its fallback', () => {
  const { open } = playgroundSession();

  test("a boarding pass asking for semanticBoardingPass is drawn from its semantic tags, times in each airport's zone; the switch shows the older layout", async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    await replaceEditorText(page, semanticBoarding());
    const card = page.locator('[data-testid=semantic-boarding-preview]');
    await card.waitFor();
    expect(await card.locator('[data-testid=boarding-flight]').textContent()).toBe('EA 815');
    const departure = card.locator('[data-end=departure]');
    const destination = card.locator('[data-end=destination]');
    expect(await departure.locator('.boarding-code').textContent()).toBe('LIS');
    expect(await departure.locator('.boarding-city').textContent()).toBe('Lisbon');
    // 09:55 UTC is 9:55 in Lisbon; 13:45 UTC is 14:45 in Copenhagen.
    expect(await departure.locator('.boarding-time').textContent()).toMatch(/^9:55\sAM$/);
    expect(await destination.locator('.boarding-code').textContent()).toBe('CPH');
    expect(await destination.locator('.boarding-time').textContent()).toMatch(/^2:45\sPM$/);
    expect(await card.locator('.boarding-date').textContent()).toBe('Dec 1, 2026');
    const detail = (name: string) => card.locator(`[data-detail=${name}] .field-value`).textContent();
    expect(await detail('gate')).toBe('B12');
    expect(await detail('terminal')).toBe('1');
    expect(await detail('boarding')).toMatch(/^9:25\sAM$/);
    expect(await detail('seat')).toBe('23A');
    expect(await detail('zone')).toBe('3');
    expect(await detail('passenger')).toBe('Ada Lovelace');
    await expect.poll(() => card.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    expect(await page.locator('[data-testid=show-poster]').textContent()).toBe('Semantic (iOS 26+)');
    await screenshot(page, '53-semantic-boarding-pass', false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('[data-testid=show-fallback]').click();
    expect(await card.count()).toBe(0);
    expect(await page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('boardingPass');
    expect(await page.locator('[data-testid=show-fallback]').textContent()).toContain('iOS 18 and earlier');
    await page.locator('[data-testid=show-poster]').click();
    await card.waitFor();
    expect(errors).toEqual([]);
  });

  test('without a required tag, or on a train, Wallet draws the ordinary boarding pass: the page says why', async () => {
    const { page, errors } = await open();
    await page.locator('.cm-content').waitFor();
    await replaceEditorText(
      page,
      semanticBoarding((body) => delete body.semantics['passengerName']),
    );
    const note = page.locator('[data-testid=poster-fallback-note]');
    await expect.poll(() => note.textContent()).toContain('the pass lacks the semantic tag passengerName');
    expect(await page.locator('[data-testid=semantic-boarding-preview]').count()).toBe(0);
    expect(await page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('boardingPass');
    await replaceEditorText(
      page,
      semanticBoarding((body) => (body.boardingPass['transitType'] = 'PKTransitTypeTrain')),
    );
    await expect.poll(() => note.textContent()).toContain('it is not an airline boarding pass');
    expect(await note.textContent()).toContain('Every iPhone shows the boarding pass below.');
    expect(await page.locator('[data-testid=semantic-boarding-preview]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
