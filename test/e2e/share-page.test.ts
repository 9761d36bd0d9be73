// The share page in Chromium, served by the service: an iPhone, an Android
// phone and a desktop browser each see the wallet buttons in their order
// (and the desktop a QR code), the page is styled under its own strict CSP
// (no violation), a hostile value in the pass shows as text, a 390 px phone
// does not scroll sideways, and axe finds no violation. Screenshots go to
// test-results/screenshots/ (and, with PASSMINT_WRITE_SCREENSHOTS=1, to
// docs/screenshots/share-*.png).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { testServiceAccount } from '../google/keys.js';
import { startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { png } from '../pkpass/helpers.js';
import { ENGINES, type TestDatabase } from '../server/databases.js';
import { startService, type Service } from '../server/harness.js';
import { CHROMIUM, chromiumAvailable, SCREENSHOTS } from './browser.js';

const HOSTILE = '<img src=x onerror=alert(1)></script>';
const DEVICES = [
  {
    name: 'iphone',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
    mobile: true,
    order: ['Add to Apple Wallet', 'Add to Google Wallet'],
    qr: false,
  },
  {
    name: 'android',
    userAgent: 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    viewport: { width: 412, height: 915 },
    mobile: true,
    order: ['Add to Google Wallet', 'Add to Apple Wallet'],
    qr: false,
  },
  {
    name: 'desktop',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    viewport: { width: 1280, height: 900 },
    mobile: false,
    order: ['Add to Apple Wallet', 'Add to Google Wallet'],
    qr: true,
  },
] as const;

/** Every axe violation, whatever its impact, contrast included (the pass's colors here are chosen to pass). */
async function axeViolations(browser: Browser, url: string, device: (typeof DEVICES)[number]): Promise<string[]> {
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // The page's own CSP forbids every script: this context lets axe in.
  const context = await browser.newContext({ userAgent: device.userAgent, viewport: device.viewport, bypassCSP: true });
  try {
    const tab = await context.newPage();
    await tab.goto(url);
    await tab.addScriptTag({ content: source });
    const violations = await tab.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
    });
    return violations;
  } finally {
    await context.close();
  }
}

// Under CI a missing Chromium fails the file instead of skipping it.
describe.skipIf(!chromiumAvailable && !process.env['CI'])('the share page in Chromium', () => {
  const account = testServiceAccount();
  let database: TestDatabase;
  let google: GoogleStandIn;
  let service: Service;
  let browser: Browser;
  let share: string;

  beforeAll(async () => {
    [database, google] = await Promise.all([ENGINES[0]!.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
    service = await startService(database, {
      issuer: { organizationName: 'Example Swim Club' },
      google: { credentials: readGoogleCredentials(account.json), issuerId: '3388000000012345678', apiUrl: google.apiUrl, tokenUrl: google.tokenUrl },
    });
    const { body: template } = await service.call('POST', '/v1/templates', {
      name: 'Member',
      formatVersion: 1,
      passType: 'pass.com.example.member',
      description: {
        logoText: 'Swim Club',
        backgroundColor: 'rgb(12, 59, 94)',
        foregroundColor: 'rgb(255, 255, 255)',
        labelColor: 'rgb(200, 225, 245)',
        storeCard: {
          headerFields: [{ key: 'tier', label: 'Tier', value: '${tier}' }],
          primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }],
          secondaryFields: [
            { key: 'since', label: 'Member since', value: '${since}' },
            { key: 'number', label: 'Number', value: '${number}' },
          ],
        },
      },
      placeholder: ['tier', 'name', 'since', 'number'],
    });
    expect((await service.call('PUT', `/v1/templates/${template.id}/files/icon.png`, png(29, 29))).status).toBe(201);
    expect((await service.call('PUT', `/v1/templates/${template.id}/files/logo.png`, png(160, 50, 0xf0))).status).toBe(201);
    expect((await service.call('PUT', `/v1/templates/${template.id}/files/strip.png`, png(375, 123, 0x30))).status).toBe(201);
    const made = await service.call('POST', `/v1/templates/${template.id}/passes`, {
      values: { tier: 'Gold', name: `Ada ${HOSTILE}`, since: '2021', number: '0042-7781-5530' },
      serialNumber: 'SWIM-1',
    });
    expect(made.status).toBe(201);
    share = new URL(made.body.links.share).pathname;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: 30_000,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await google?.close();
    await database?.dispose();
  });

  test.each(DEVICES)(
    '$name: the buttons in its order, styled under the CSP, the hostile value as text, no sideways scrolling, axe clean',
    async (device) => {
      const context = await browser.newContext({ userAgent: device.userAgent, viewport: device.viewport, isMobile: device.mobile, hasTouch: device.mobile });
      try {
        const tab = await context.newPage();
        const problems: string[] = [];
        const requests: string[] = [];
        tab.on('console', (message) => problems.push(message.text()));
        tab.on('pageerror', (error) => problems.push(String(error)));
        tab.on('dialog', (dialog) => {
          problems.push(`dialog: ${dialog.message()}`);
          void dialog.dismiss();
        });
        tab.on('request', (request) => requests.push(request.url()));
        const response = await tab.goto(`${service.url}${share}`);
        expect(response?.status()).toBe(200);
        expect(await tab.locator('a.wallet').allTextContents()).toEqual(device.order);
        expect(await tab.locator('svg[role="img"]').count()).toBe(device.qr ? 1 : 0);
        // The style applied (its hash in the CSP matched): the buttons are black, the card the pass's blue.
        expect(
          await tab
            .locator('a.wallet')
            .first()
            .evaluate((element) => getComputedStyle(element).backgroundColor),
        ).toBe('rgb(0, 0, 0)');
        expect(await tab.locator('section.card').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(12, 59, 94)');
        // The hostile value is text: shown as written, no element made of it, nothing ran.
        await expect(tab.getByText(`Ada ${HOSTILE}`).isVisible()).resolves.toBe(true);
        expect(await tab.locator('img').count()).toBe(2); // logo and strip
        expect(await tab.locator('img[src="x"]').count()).toBe(0);
        expect(problems).toEqual([]);
        // Only the service itself was asked for anything.
        expect(requests.every((url) => url.startsWith(service.url))).toBe(true);
        // No sideways scrolling on a phone.
        if (device.mobile) expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await tab.screenshot({ path: join(SCREENSHOTS, `share-${device.name}.png`), fullPage: true });
        if (process.env['PASSMINT_WRITE_SCREENSHOTS'] === '1')
          await tab.screenshot({ path: resolve(`docs/screenshots/share-${device.name}.png`), fullPage: true });
      } finally {
        await context.close();
      }
      expect(await axeViolations(browser, `${service.url}${share}`, device)).toEqual([]);
    },
    60_000,
  );
});
