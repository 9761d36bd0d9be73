import { unzipSync, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { buildPass } from '../../src/index.js';
import type { PassTemplate } from '../../src/index.js';
import { createPassSigner, encodePassStrings, packPass } from '../../src/pkpass/index.js';
import { makePki, type Pki } from '../pkpass/pki.js';
import { chromiumAvailable, screenshot, playgroundSession } from './browser.js';
import { solidPng } from './png.js';

const event = examples.find((example) => example.id === 'event-ticket') ?? examples[2];
if (event === undefined) throw new Error('no event example');

/** A .pkpass made by packPass from the event ticket example, with its own images. */
async function makePackage(): Promise<Uint8Array> {
  const pki = await makePki();
  const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
  const template = { ...event?.template, passType: pki.passTypeIdentifier } as PassTemplate;
  const values = Object.fromEntries(Object.entries(event?.values ?? {}).map(([name, value]) => [name, value.json ? JSON.parse(value.text) : value.text]));
  const pass = buildPass(template, values, { teamIdentifier: pki.teamIdentifier, organizationName: 'Inspector Test', serialNumber: 'E2E-INSPECT-1' });
  return packPass(
    pass,
    {
      'icon.png': solidPng(29, 29, [200, 30, 30]),
      'icon@2x.png': solidPng(58, 58, [200, 30, 30]),
      'logo@2x.png': solidPng(320, 100, [255, 255, 255]),
      'strip@2x.png': solidPng(750, 196, [220, 120, 20]),
      'de.lproj/pass.strings': encodePassStrings({ Doors: 'Einlass', Venue: 'Ort' }),
    },
    signer,
  );
}

/** The same package with pass.json changed after signing. */
function tamper(pkpass: Uint8Array): Uint8Array {
  const files = unzipSync(pkpass);
  const pass = new TextDecoder().decode(files['pass.json']).replace('Inspector Test', 'Inspector Tset');
  return zipSync({ ...files, 'pass.json': new TextEncoder().encode(pass) });
}

describe.skipIf(!chromiumAvailable)('playground: the .pkpass inspector', () => {
  const session = playgroundSession();
  let pkpass: Uint8Array;
  let pki: Pki;

  beforeAll(async () => {
    [pkpass, pki] = await Promise.all([makePackage(), makePki()]);
  }, 60_000);

  async function inspect(page: Page, name: string, bytes: Uint8Array): Promise<void> {
    await page.locator('[data-testid=inspect-file]').setInputFiles({ name, mimeType: 'application/vnd.apple.pkpass', buffer: Buffer.from(bytes) });
    await page.locator('[data-testid=inspection-verdict]').waitFor();
    await expect.poll(() => page.locator('[data-testid=inspection-verdict]').textContent()).toContain(name);
  }

  test('a package made by packPass shows as valid, with its signature, files and own images; "edit as template" loads it', async () => {
    const playground = await session.open();
    const { page, errors } = playground;
    await inspect(page, 'ticket.pkpass', pkpass);
    expect(await page.locator('[data-testid=inspection]').getAttribute('data-ok')).toBe('true');
    expect(await page.locator('[data-testid=inspection-verdict]').textContent()).toContain('valid — Wallet would open it');
    const signature = await page.locator('[data-testid=inspection-signature]').textContent();
    expect(signature).toContain('pass.com.example.test');
    expect(signature).toMatch(/valid until \d{4}-\d\d-\d\d \(\d+ days left\)/);
    const paths = await page.locator('[data-testid=inspection-files] tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-path')));
    expect(paths).toEqual(['pass.json', 'de.lproj/pass.strings', 'icon.png', 'icon@2x.png', 'logo@2x.png', 'strip@2x.png', 'manifest.json', 'signature']);
    expect(await page.locator('[data-testid=inspection-strings]').textContent()).toContain('de: 2 strings — "Doors" → "Einlass"');
    // Drawn with its own strip and logo.
    const inspected = page.locator('[data-testid=inspected-pass]');
    expect(await inspected.getAttribute('data-style')).toBe('eventTicket');
    await inspected.locator('[data-testid=image-strip]').waitFor();
    await inspected.locator('[data-testid=image-logo]').waitFor();
    await page.locator('[data-testid=inspection]').scrollIntoViewIfNeeded();
    await screenshot(page, '20-inspector-valid');

    expect(await page.locator('[data-testid=inspection-chain]').textContent()).toContain('up to the WWDR');

    // With the PKI's root given, the chain is checked to it; with an unrelated root, it is not trusted.
    await page.locator('[data-testid=inspect-root]').setInputFiles({ name: 'root.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(pki.rootPem) });
    await expect.poll(() => page.locator('[data-testid=inspection-chain]').textContent()).toContain('trusted root you gave');
    expect(await page.locator('[data-testid=inspection]').getAttribute('data-ok')).toBe('true');
    await page
      .locator('[data-testid=inspect-root]')
      .setInputFiles({ name: 'other-root.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(pki.otherRootPem) });
    await expect.poll(() => page.locator('[data-testid=inspection]').getAttribute('data-ok')).toBe('false');
    const chainCodes = await page.locator('[data-testid=inspection-issues] li').evaluateAll((items) => items.map((item) => item.getAttribute('data-code')));
    expect(chainCodes).toContain('untrusted-chain');
    await page.locator('[data-testid=inspect-root]').setInputFiles([]);
    await expect.poll(() => page.locator('[data-testid=inspection]').getAttribute('data-ok')).toBe('true');

    await page.locator('[data-testid=edit-as-template]').click();
    await expect.poll(() => page.locator('.cm-content').textContent()).toContain('"passType": "pass.com.example.test"');
    await expect.poll(() => page.getByLabel('Organization name').inputValue()).toBe('Inspector Test');
    // The note comes once the images are in.
    await expect
      .poll(() => page.locator('[data-testid=inspection] .toolbar [role=status]').textContent())
      .toContain('Not taken (the editor has no place for them): de.lproj/pass.strings');
    await page.locator('[data-testid=pass-preview] [data-testid=image-strip]').waitFor();
    expect(await page.locator('[data-testid=pass-preview]').getAttribute('data-style')).toBe('eventTicket');
    expect(await page.locator('[data-testid="size-strip@2x.png"]').textContent()).toBe('750×196');
    await expect.poll(() => page.locator('[data-testid=issue-summary]').textContent()).toMatch(/^(No issues|0 errors)/);
    expect(errors).toEqual([]);
  });

  test('a tampered package reports the hash mismatch and is not valid', async () => {
    const playground = await session.open();
    const { page, errors } = playground;
    await inspect(page, 'tampered.pkpass', tamper(pkpass));
    expect(await page.locator('[data-testid=inspection]').getAttribute('data-ok')).toBe('false');
    expect(await page.locator('[data-testid=inspection-verdict]').textContent()).toContain('Wallet would refuse it');
    const codes = await page.locator('[data-testid=inspection-issues] li').evaluateAll((items) => items.map((item) => item.getAttribute('data-code')));
    expect(codes).toContain('hash-mismatch');
    expect(await page.locator('[data-testid=inspection-files] tr[data-path="pass.json"] td').last().textContent()).toBe('hash differs');
    await page.locator('[data-testid=inspection]').scrollIntoViewIfNeeded();
    await screenshot(page, '21-inspector-tampered');

    // Dropped rather than chosen: the same report.
    await page.locator('.drop-zone').evaluate(
      (zone, bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], 'dropped.pkpass', { type: 'application/vnd.apple.pkpass' }));
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      },
      [...pkpass],
    );
    await expect.poll(() => page.locator('[data-testid=inspection-verdict]').textContent()).toContain('dropped.pkpass');
    expect(await page.locator('[data-testid=inspection]').getAttribute('data-ok')).toBe('true');

    // Not a zip at all: a report, not a crash.
    await inspect(page, 'junk.pkpass', new TextEncoder().encode('not a zip'));
    expect(await page.locator('[data-testid=inspection-issues] li').first().getAttribute('data-code')).toBe('invalid-zip');
    expect(errors).toEqual([]);
  });
});
