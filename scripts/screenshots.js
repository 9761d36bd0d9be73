// npm run screenshots: builds the playground, serves it on 127.0.0.1 and has
// Chromium (/usr/bin/chromium, or $PASSMINT_CHROMIUM) draw every view — each pass
// style, each poster layout, the semantic boarding pass and each Google Wallet type, in the light and the dark
// theme, at a desktop and a phone size — into docs/screenshots/.
//
// Desktop pictures are of the pass alone (the preview's card); phone pictures are
// the whole phone screen with the pass brought up in its sheet.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const OUT = resolve('docs/screenshots');
const CHROMIUM = process.env.PASSMINT_CHROMIUM ?? '/usr/bin/chromium';

/** An iOS 26 semantic boarding pass (no example has one): opened through a shared link's `#z=` state. */
const SEMANTIC_BOARDING = {
  id: 26,
  name: 'Semantic boarding pass',
  formatVersion: 1,
  passType: 'pass.com.example.air',
  description: {
    preferredStyleSchemes: ['semanticBoardingPass', 'boardingPass'],
    barcodes: [{ message: 'K7Q2ZD|EA 815|23A', format: 'PKBarcodeFormatAztec', messageEncoding: 'iso-8859-1' }],
    logoText: 'Example Air',
    foregroundColor: 'rgb(15, 23, 42)',
    backgroundColor: 'rgb(186, 230, 253)',
    labelColor: 'rgb(3, 105, 161)',
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
    boardingPass: {
      transitType: 'PKTransitTypeAir',
      headerFields: [{ key: 'gate', label: 'Gate', value: 'B12' }],
      primaryFields: [
        { key: 'origin', label: 'Lisbon', value: 'LIS' },
        { key: 'destination', label: 'Copenhagen', value: 'CPH' },
      ],
      secondaryFields: [
        { key: 'passenger', label: 'Passenger', value: 'Ada Lovelace' },
        { key: 'seat', label: 'Seat', value: '23A', textAlignment: 'PKTextAlignmentRight' },
      ],
      auxiliaryFields: [
        { key: 'flight', label: 'Flight', value: 'EA 815' },
        { key: 'boarding', label: 'Boarding', value: '09:25', textAlignment: 'PKTextAlignmentCenter' },
      ],
    },
  },
  placeholder: [],
};
const semanticHash = `#z=${deflateRawSync(JSON.stringify({ template: `${JSON.stringify(SEMANTIC_BOARDING, null, 2)}\n`, values: {}, issuer: {} })).toString('base64url')}`;

/** Every view: the example to load (or a shared state), which wallet, and for posters which layout. */
const VIEWS = [
  { name: 'apple-generic', example: 'membership' },
  { name: 'apple-event-ticket', example: 'event-ticket' },
  { name: 'apple-coupon', example: 'coupon' },
  { name: 'apple-store-card', example: 'store-card' },
  { name: 'apple-boarding-pass', example: 'boarding-pass' },
  { name: 'apple-back', example: 'membership', back: true },
  { name: 'poster-event-ticket', example: 'poster-event' },
  { name: 'poster-event-ticket-fallback', example: 'poster-event', fallback: true },
  { name: 'poster-generic', example: 'poster-generic' },
  { name: 'poster-generic-fallback', example: 'poster-generic', fallback: true },
  { name: 'semantic-boarding-pass', hash: semanticHash },
  { name: 'semantic-boarding-pass-fallback', hash: semanticHash, fallback: true },
  { name: 'google-generic', example: 'membership', google: true },
  { name: 'google-event-ticket', example: 'event-ticket', google: true },
  { name: 'google-offer', example: 'coupon', google: true },
  { name: 'google-loyalty', example: 'store-card', google: true },
  { name: 'google-flight', example: 'boarding-pass', google: true },
];
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];
const THEMES = ['light', 'dark'];

async function show(page, view, url) {
  if (view.hash === undefined) await page.locator('[data-testid=example-picker]').selectOption(view.example);
  else if (!page.url().endsWith(view.hash)) {
    await page.goto(`${url}${view.hash}`);
    await page.locator('.pass-dock .preview').first().waitFor();
  }
  await page
    .locator(view.google ? '[data-testid=show-google]' : '[data-testid=show-apple]')
    .first()
    .click();
  if (view.google) await page.locator('[data-testid=google-preview]').first().waitFor();
  if (view.fallback) await page.locator('[data-testid=show-fallback]').first().click();
  else if ((await page.locator('[data-testid=show-poster]').count()) > 0) await page.locator('[data-testid=show-poster]').first().click();
  if (view.back) await page.locator('[data-testid=show-back]').first().click();
  // The barcode is drawn by code loaded on first use.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=barcode]')].every((barcode) => barcode.getAttribute('data-status') !== 'loading'),
  );
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  for (const file of readdirSync(OUT)) if (file.endsWith('.png')) rmSync(join(OUT, file));
  const outDir = mkdtempSync(join(tmpdir(), 'passmint-screenshots-'));
  const configFile = resolve('vite.config.ts');
  await build({ configFile, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  const server = await preview({ configFile, logLevel: 'silent', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false } });
  const url = `http://127.0.0.1:${server.httpServer.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    for (const size of SIZES) {
      for (const theme of THEMES) {
        const context = await browser.newContext({ viewport: size.viewport, colorScheme: theme, locale: 'en-US', timezoneId: 'UTC' });
        const page = await context.newPage();
        await page.goto(url);
        await page.locator('[data-testid=pass-preview]').waitFor();
        for (const view of VIEWS) {
          await show(page, view, url);
          const path = join(OUT, `${view.name}-${theme}-${size.name}.png`);
          if (size.name === 'desktop') {
            const card = page.locator('.pass-dock .preview').first();
            await card.screenshot({ path });
          } else {
            await page.evaluate(() => scrollTo(0, 0));
            await page.locator('[data-testid=show-pass]').click();
            await page.locator('[data-testid=preview-sheet]').waitFor();
            await page.waitForTimeout(100);
            await page.screenshot({ path });
            await page.locator('[data-testid=close-sheet]').click();
          }
        }
        // One whole page per theme and size, to show the playground around the pass.
        await page.locator('[data-testid=example-picker]').selectOption('membership');
        await page.locator('[data-testid=show-apple]').first().click();
        await page.evaluate(() => scrollTo(0, 0));
        await page.screenshot({ path: join(OUT, `playground-${theme}-${size.name}.png`) });
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
  const files = readdirSync(OUT).filter((file) => file.endsWith('.png'));
  const bytes = files.reduce((sum, file) => sum + statSync(join(OUT, file)).size, 0);
  process.stdout.write(`${files.length} screenshots in docs/screenshots/ (${Math.round(bytes / 1024)} KB)\n`);
}

await main();
// The console's pages (docs/screenshots/console-*.png), drawn by its end-to-end test against a real service.
const consolePictures = spawnSync('npx', ['vitest', 'run', 'test/e2e/console.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PASSMINT_CONSOLE_SCREENSHOTS: '1' },
});
if (consolePictures.status !== 0) process.exitCode = 1;
