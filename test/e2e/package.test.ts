import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { examples } from '../../playground/examples/index.js';
import { readPass, verifyPass } from '../../src/pkpass/index.js';
import { makePki, type Pki } from '../pkpass/pki.js';
import { chromiumAvailable, replaceEditorText, screenshot, playgroundSession, sharedStateOf } from './browser.js';
import { pngFile, solidPng } from './png.js';

const exec = promisify(execFile);
const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;
const first = examples[0];
if (first === undefined) throw new Error('no examples');

/** `openssl cms -verify` on the package's signature over its manifest.json, trusting `root.pem`. */
async function opensslVerifies(pkpass: Uint8Array, rootPem: string): Promise<{ code: number; stderr: string }> {
  const files = unzipSync(pkpass);
  const dir = mkdtempSync(join(tmpdir(), 'passmint-e2e-cms-'));
  try {
    writeFileSync(join(dir, 'signature'), files['signature'] ?? new Uint8Array());
    writeFileSync(join(dir, 'manifest.json'), files['manifest.json'] ?? new Uint8Array());
    writeFileSync(join(dir, 'root.pem'), rootPem);
    await exec(
      'openssl',
      [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        'signature',
        '-content',
        'manifest.json',
        '-CAfile',
        'root.pem',
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { cwd: dir },
    );
    return { code: 0, stderr: '' };
  } catch (error) {
    const failure = error as { code?: number; stderr?: string };
    return { code: failure.code ?? -1, stderr: failure.stderr ?? '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The image references in a playground URL's `#z=` state. */
const sharedImages = (url: string): Record<string, string> | undefined => sharedStateOf(url)?.images;

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Uint8Array }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync(path)) };
}

describe.skipIf(!chromiumAvailable)('playground: images, signed .pkpass, unsigned bundle', () => {
  const session = playgroundSession();
  const { open } = session;
  let pki: Pki;

  beforeAll(async () => {
    pki = await makePki();
  }, 60_000);

  /** The first example, made for the test certificate's pass type, with an icon and a logo. */
  async function prepare(page: Page): Promise<void> {
    await replaceEditorText(page, templateText(first?.template).replace('pass.com.example.membership', pki.passTypeIdentifier));
    // Its own icon at @1x and @2x, in place of the examples' stand-in (whose @3x is removed).
    await page.locator('[data-testid="slot-icon@3x.png"] button').click();
    await page.locator('#image-icon-1').setInputFiles(pngFile('icon.png', solidPng(29, 29, [22, 101, 52])));
    await page.locator('#image-icon-2').setInputFiles(pngFile('icon@2x.png', solidPng(58, 58, [22, 101, 52])));
    await page.locator('#image-logo-2').setInputFiles(pngFile('logo@2x.png', solidPng(320, 100, [250, 204, 21])));
    await page.locator('[data-testid=image-logo]').waitFor();
    await expect.poll(() => page.locator('[data-testid=issue-summary]').textContent()).toMatch(/^(No issues|0 errors)/);
  }

  test("images go into their slots, are checked against Apple's sizes, and the preview draws them", async () => {
    const { page, errors } = await open();
    await prepare(page);
    expect(await page.locator('[data-testid="size-logo@2x.png"]').textContent()).toBe('320×100');
    // Reached from the keyboard, a slot's hidden file input rings its visible "Choose" button.
    await page.locator('#image-logo-3').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.locator('#image-logo-3 + .file-button').evaluate((label) => getComputedStyle(label).outlineStyle)).toBe('solid');
    expect(await page.locator('[data-testid="image-issue-logo@2x.png"]').count()).toBe(0);
    // A logo too wide for @1x (160×50 pt) is flagged.
    await page.locator('#image-logo-1').setInputFiles(pngFile('big.png', solidPng(400, 50, [0, 0, 255])));
    await expect.poll(() => page.locator('[data-testid="image-issue-logo.png"]').textContent()).toContain('larger than 160×50 px');
    // … and listed with the issues; clicking it goes to the slot.
    const sizeIssue = page.locator('[data-testid=issues] button[data-code=image-size]');
    expect(await sizeIssue.textContent()).toContain('logo.png');
    await sizeIssue.click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('image-logo-1');
    // Not an image: said in the slot, nothing stored.
    await page.locator('#image-thumbnail-1').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await expect.poll(() => page.locator('[data-testid="slot-thumbnail.png"] .image-issue.error').count()).toBe(1);
    expect(await page.locator('[data-testid="size-thumbnail.png"]').textContent()).toBe('up to 90×90 px');
    // Dropped on a slot rather than chosen.
    await page.locator('[data-testid="slot-logo@3x.png"]').evaluate(
      (slot, bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], 'dropped.png', { type: 'image/png' }));
        slot.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      },
      [...solidPng(480, 150, [250, 204, 21])],
    );
    await expect.poll(() => page.locator('[data-testid="size-logo@3x.png"]').textContent()).toBe('480×150');
    // The thumbnail of a generic pass is drawn beside the primary field.
    await page.locator('#image-thumbnail-2').setInputFiles(pngFile('thumb.png', solidPng(180, 180, [255, 255, 255])));
    await page.locator('[data-testid=pass-preview] [data-testid=image-thumbnail]').waitFor();
    // The preview's logo is the densest picture of the slot (@3x, dropped above).
    const logo = await page
      .locator('[data-testid=pass-preview] [data-testid=image-logo]')
      .evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]);
    expect(logo).toEqual([480, 150]);
    await screenshot(page, '10-images');

    // The share link names images by hash only; a reload finds them in IndexedDB.
    await expect.poll(() => Object.keys(sharedImages(page.url()) ?? {}).length).toBe(6);
    expect(page.url().length).toBeLessThan(2500);
    await page.reload();
    await page.locator('[data-testid=pass-preview] [data-testid=image-logo]').waitFor();
    // Another browser (a fresh context: empty IndexedDB) is told which images it lacks.
    const other = await open({ url: page.url() });
    await expect.poll(() => other.page.locator('[data-testid=missing-images]').textContent()).toContain('logo@2x.png');
    // … and its address keeps naming them, so passing the link on loses nothing.
    await other.page.getByLabel('firstName', { exact: true }).fill('Ada');
    await expect.poll(() => sharedImages(other.page.url())).toEqual(sharedImages(page.url()));
    expect(Object.keys(sharedImages(page.url()) ?? {}).sort()).toEqual([
      'icon.png',
      'icon@2x.png',
      'logo.png',
      'logo@2x.png',
      'logo@3x.png',
      'thumbnail@2x.png',
    ]);
    expect([...errors, ...other.errors]).toEqual([]);
  });

  test('each style puts its images where Wallet does; an event ticket with a strip shows no background or thumbnail', async () => {
    const { page, errors } = await open();
    const card = page.locator('[data-testid=pass-preview]');
    await page.locator('[data-testid=example-picker]').selectOption('event-ticket');
    await expect.poll(() => card.getAttribute('data-style')).toBe('eventTicket');
    await page.locator('#image-background-2').setInputFiles(pngFile('background.png', solidPng(360, 440, [120, 40, 160])));
    await page.locator('#image-thumbnail-2').setInputFiles(pngFile('thumbnail.png', solidPng(180, 180, [255, 255, 255])));
    await card.locator('[data-testid=image-background]').waitFor();
    await card.locator('[data-testid=image-thumbnail]').waitFor();
    await screenshot(page, '14-event-background-thumbnail');
    await page.locator('#image-strip-2').setInputFiles(pngFile('strip.png', solidPng(750, 196, [220, 120, 20])));
    await card.locator('[data-testid=image-strip]').waitFor();
    expect(await card.locator('[data-testid=image-background]').count()).toBe(0);
    expect(await card.locator('[data-testid=image-thumbnail]').count()).toBe(0);
    // The Issues list follows when the page is idle.
    const unused = async (): Promise<string> => (await page.locator('[data-testid=issues] button[data-code=unused-image]').allTextContents()).join('\n');
    await expect.poll(unused).toContain('"background@2x.png" is never shown');
    expect(await unused()).toContain('"thumbnail@2x.png" is never shown');

    // A boarding pass: the footer above the barcode, no strip slot.
    await page.locator('[data-testid=example-picker]').selectOption('boarding-pass');
    await expect.poll(() => card.getAttribute('data-style')).toBe('boardingPass');
    await page.locator('#image-footer-2').setInputFiles(pngFile('footer.png', solidPng(590, 30, [15, 23, 42])));
    const footer = card.locator('[data-testid=image-footer]');
    await footer.waitFor();
    const [footerBox, barcodeBox] = await Promise.all([footer.boundingBox(), card.locator('[data-testid=barcode]').boundingBox()]);
    expect((footerBox?.y ?? 0) + (footerBox?.height ?? 0)).toBeLessThanOrEqual(barcodeBox?.y ?? 0);
    expect(await card.locator('[data-testid=image-strip]').count()).toBe(0);
    expect(await page.locator('[data-testid=slot-strip] legend').textContent()).toBe('strip');
    expect(await page.locator('[data-testid=slot-strip] .hint').textContent()).toContain('Not shown');
    await screenshot(page, '15-boarding-footer');
    expect(errors).toEqual([]);
  });

  test('signs in the page: the download verifies with verifyPass and openssl cms; keys never leave the page', async () => {
    const { page, errors } = await open();
    const requests: { url: string; method: string; body: string }[] = [];
    page.on('request', (request) => requests.push({ url: request.url(), method: request.method(), body: request.postData() ?? '' }));
    await prepare(page);
    expect(await page.locator('[data-testid=privacy-note]').textContent()).toContain('never sent in any request');

    // Without a certificate: the explanation and the unsigned bundle.
    expect(await page.locator('[data-testid=sign]').isDisabled()).toBe(true);
    const unsigned = await download(page, () => page.locator('[data-testid=download-unsigned]').click());
    const entries = unzipSync(unsigned.bytes);
    expect(Object.keys(entries).sort()).toEqual(['icon.png', 'icon@2x.png', 'logo@2x.png', 'manifest.json', 'pass.json']);
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json'])) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(['icon.png', 'icon@2x.png', 'logo@2x.png', 'pass.json']);
    const unsignedReport = await verifyPass(unsigned.bytes);
    expect(unsignedReport.issues.map((issue) => issue.code)).toContain('missing-signature');
    expect(unsignedReport.issues.filter((issue) => issue.code === 'hash-mismatch')).toEqual([]);

    // Certificate as a file (PEM), key pasted, WWDR as DER.
    await page.locator('#certificate-file').setInputFiles({ name: 'pass.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(pki.certPem) });
    await page.locator('#key-pem').fill(pki.keyPem);
    await page.locator('#wwdr-file').setInputFiles({ name: 'AppleWWDRCAG4.cer', mimeType: 'application/pkix-cert', buffer: Buffer.from(pki.wwdrDer) });
    await screenshot(page, '11-sign-ready');
    const signed = await download(page, () => page.locator('[data-testid=sign]').click());
    expect(signed.name).toMatch(/\.pkpass$/);
    await expect.poll(() => page.locator('[data-testid=sign-status]').getAttribute('data-kind')).toBe('done');

    const report = await verifyPass(signed.bytes, { roots: [pki.rootPem] });
    expect(report.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.signer?.passTypeIdentifier).toBe(pki.passTypeIdentifier);
    const opened = await readPass(signed.bytes);
    expect([...opened.files.keys()].sort()).toEqual(['icon.png', 'icon@2x.png', 'logo@2x.png']);
    expect(opened.pass['passTypeIdentifier']).toBe(pki.passTypeIdentifier);
    expect(await opensslVerifies(signed.bytes, pki.rootPem)).toEqual({ code: 0, stderr: '' });
    await screenshot(page, '12-signed');
    // The page's own inspector agrees.
    await page
      .locator('[data-testid=inspect-file]')
      .setInputFiles({ name: signed.name, mimeType: 'application/vnd.apple.pkpass', buffer: Buffer.from(signed.bytes) });
    await expect.poll(() => page.locator('[data-testid=inspection]').getAttribute('data-ok')).toBe('true');

    // An encrypted key with its passphrase signs too.
    await page.locator('#key-pem').fill(pki.encryptedKeyPem);
    await page.locator('#passphrase').fill(pki.passphrase);
    const again = await download(page, () => page.locator('[data-testid=sign]').click());
    expect((await verifyPass(again.bytes, { roots: [pki.rootPem] })).ok).toBe(true);

    // A wrong passphrase is an issue on the page, not a download.
    await page.locator('#passphrase').fill('wrong');
    await page.locator('[data-testid=sign]').click();
    await expect.poll(() => page.locator('[data-testid=sign-status]').getAttribute('data-kind')).toBe('failed');
    expect(await page.locator('[data-testid=sign-status] li').first().getAttribute('data-code')).toBe('wrong-passphrase');

    // The key went nowhere: not into the address, not into storage, not into a request.
    const secretLine = pki.keyPem.split('\n')[1] ?? 'unreachable';
    expect(page.url()).not.toContain(secretLine.slice(0, 20));
    const stored = await page.evaluate(async () => {
      const local = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
      const databases = (await indexedDB.databases()).map((database) => database.name);
      return { local, databases };
    });
    expect(stored.local).not.toContain('PRIVATE KEY');
    expect(stored.databases).toEqual(['passmint-playground']);
    // Only the page's own files and its object URLs (images, downloads): nothing sent anywhere.
    const own = (url: string): boolean => url.startsWith(session.harness.url) || url.startsWith(`blob:${session.harness.url.replace(/\/$/, '')}`);
    expect(requests.filter((request) => request.method !== 'GET' || !own(request.url))).toEqual([]);
    expect(requests.some((request) => request.url.includes(secretLine.slice(0, 20)) || request.body.includes('PRIVATE'))).toBe(false);

    // "Forget the keys" empties every credential input; signing needs them again.
    await page.locator('[data-testid=forget-keys]').click();
    expect(await page.locator('#key-pem').inputValue()).toBe('');
    expect(await page.locator('#passphrase').inputValue()).toBe('');
    expect(await page.locator('#certificate-file').inputValue()).toBe('');
    expect(await page.locator('[data-testid=credential-certificate-state]').textContent()).toBe('not given');
    expect(await page.locator('[data-testid=sign]').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  test("without artwork, a stand-in icon from the pass's colors lets a first pass be signed", async () => {
    const { page, errors } = await open();
    await replaceEditorText(page, templateText(first?.template).replace('pass.com.example.membership', pki.passTypeIdentifier));
    await page.locator('#image-logo-1').setInputFiles(pngFile('logo.png', solidPng(160, 50, [250, 204, 21])));
    // Without the examples' stand-in icon.
    for (const path of ['icon.png', 'icon@2x.png', 'icon@3x.png']) await page.locator(`[data-testid="slot-${path}"] button`).click();
    await expect.poll(() => page.locator('[data-testid=issues] button[data-code=missing-icon]').count()).toBe(1);
    await page.locator('[data-testid=make-icon]').click();
    await expect.poll(() => page.locator('[data-testid="size-icon@3x.png"]').textContent()).toBe('87×87');
    expect(await page.locator('[data-testid="size-icon.png"]').textContent()).toBe('29×29');
    await expect.poll(() => page.locator('[data-testid=issues] button[data-code=missing-icon]').count()).toBe(0);
    await page.locator('#certificate-pem').fill(pki.certPem);
    await page.locator('#key-pem').fill(pki.keyPem);
    await page.locator('#wwdr-pem').fill(pki.wwdrPem);
    const signed = await download(page, () => page.locator('[data-testid=sign]').click());
    const report = await verifyPass(signed.bytes, { roots: [pki.rootPem] });
    expect(report.ok).toBe(true);
    expect([...(await readPass(signed.bytes)).files.keys()].sort()).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png']);
    expect(errors).toEqual([]);
  });

  test("a certificate for another pass type is refused with the library's issue", async () => {
    const { page, errors } = await open();
    await page.locator('#image-icon-1').setInputFiles(pngFile('icon.png', solidPng(29, 29, [22, 101, 52])));
    await page.locator('#certificate-pem').fill(pki.certPem);
    await page.locator('#key-pem').fill(pki.keyPem);
    await page.locator('#wwdr-pem').fill(pki.wwdrPem);
    await page.locator('[data-testid=sign]').click();
    await expect.poll(() => page.locator('[data-testid=sign-status]').getAttribute('data-kind')).toBe('failed');
    const codes = await page.locator('[data-testid=sign-status] li').evaluateAll((items) => items.map((item) => item.getAttribute('data-code')));
    expect(codes).toContain('identity-mismatch');
    await screenshot(page, '13-sign-refused');
    expect(errors).toEqual([]);
  });
});
