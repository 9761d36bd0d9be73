import { createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable, playgroundSession, replaceEditorText, screenshot } from './browser.js';
import { pngFile, solidPng } from './png.js';

describe.skipIf(!chromiumAvailable)('playground: Google Wallet beside Apple Wallet', () => {
  const { open } = playgroundSession();

  test('the same template drawn as Google draws its class and object; its losses are listed apart', async () => {
    const { page, errors } = await open();
    // What Google Wallet loses is listed once its mapping has loaded (when the page is idle).
    const losses = page.locator('[data-testid=google-losses]');
    await losses.waitFor();
    expect(await losses.locator('summary').textContent()).toMatch(/^Google Wallet: \d+ things? it does not show$/);
    const codes = await losses
      .locator('button')
      .evaluateAll((buttons) => buttons.map((button) => [button.getAttribute('data-code'), button.getAttribute('data-source')]));
    expect(codes).toContainEqual(['google-color-dropped', 'google']);
    // Not counted as Apple Wallet issues (the example, with its stand-in icon, has none).
    expect(await page.locator('[data-testid=issue-summary]').textContent()).toBe('No issues: the pass is valid.');
    // A loss leads to its place in the template.
    await losses.locator('summary').click();
    await losses.locator('button[data-code=google-color-dropped]').first().click();
    expect(await page.locator('.cm-activeLine').textContent()).toMatch(/foregroundColor|labelColor/);

    await page.locator('#image-logo-2').setInputFiles(pngFile('logo.png', solidPng(320, 100, [250, 204, 21])));
    await page.locator('[data-testid=show-google]').click();
    const card = page.locator('[data-testid=google-preview]');
    await card.waitFor();
    expect(await card.getAttribute('data-type')).toBe('generic');
    expect(await card.locator('.google-title').textContent()).toBe('Northside Climbing');
    expect(await card.locator('[data-testid=google-header]').textContent()).toBe('Grace Hopper');
    // Google's background color from backgroundColor; text color picked by Google (white on dark green).
    expect(await card.evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(element).color])).toEqual([
      'rgb(22, 101, 52)',
      'rgb(255, 255, 255)',
    ]);
    const rows = await card
      .locator('[data-testid=google-row]')
      .evaluateAll((list) => list.map((row) => [...row.querySelectorAll('.google-item')].map((item) => item.getAttribute('data-id'))));
    expect(rows).toEqual([
      ['level', 'memberId', 'since'],
      ['home', 'valid'],
    ]);
    await card.locator('[data-testid=google-logo]').waitFor();
    await expect.poll(() => card.locator('[data-testid=barcode]').getAttribute('data-status')).toBe('drawn');
    // Typing follows in Google's view too.
    await page.getByLabel('firstName', { exact: true }).fill('Katherine');
    await expect.poll(() => card.locator('[data-testid=google-header]').textContent()).toBe('Katherine Hopper');
    await screenshot(page, '60-google-generic', false);
    // Each style becomes its Google type.
    for (const [id, type] of [
      ['event-ticket', 'eventTicket'],
      ['coupon', 'offer'],
      ['store-card', 'loyalty'],
      ['boarding-pass', 'flight'],
    ] as const) {
      await page.locator('[data-testid=example-picker]').selectOption(id);
      await expect.poll(() => card.getAttribute('data-type')).toBe(type);
    }
    await page.locator('[data-testid=show-apple]').click();
    await page.locator('[data-testid=pass-preview]').waitFor();
    expect(errors).toEqual([]);
  });

  test('"Both" draws Apple Wallet and Google Wallet together; the preview language applies to both', async () => {
    const { page, errors } = await open();
    await page.locator('[data-testid=google-losses]').waitFor();
    await page.locator('[data-testid=show-both]').click();
    await page.locator('[data-testid=google-preview]').waitFor();
    expect(await page.locator('[data-testid=pass-preview]').count()).toBe(1);
    await page.locator('#new-language').fill('de');
    await page.locator('[data-testid=add-language]').click();
    const strings = page.locator('#strings-de');
    await strings.fill((await strings.inputValue()).replace('"Member no." = "Member no.";', '"Member no." = "Mitgliedsnr.";'));
    await expect.poll(() => page.locator('[data-testid=google-preview] [data-id=memberId] .google-item-label').textContent()).toBe('Mitgliedsnr.');
    expect(await page.locator('[data-testid=pass-preview] [data-key=memberId] .field-label').textContent()).toBe('Mitgliedsnr.');
    await screenshot(page, '61-both-wallets-de', false);
    expect(errors).toEqual([]);
  });

  test('a service-account key given in the page makes a signed "Add to Google Wallet" link; the key goes nowhere', async () => {
    const { page, errors } = await open();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(`${request.url()} ${request.postData() ?? ''}`));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const keyFile = JSON.stringify({
      type: 'service_account',
      project_id: 'demo',
      private_key_id: 'k1',
      private_key: privateKey,
      client_email: 'wallet@demo.iam.gserviceaccount.com',
    });
    // A wrong file is refused with Google's reason.
    await page.locator('#google-key-pem').fill('{"installed": {}}');
    await page.locator('#google-issuer').fill('3388000000012345678');
    await page.locator('[data-testid=make-google-link]').click();
    await expect.poll(() => page.locator('[data-testid=google-status]').getAttribute('data-code')).toBe('not-service-account');
    // The real key (masked while pasted).
    await page.locator('#google-key-pem').fill(keyFile);
    expect(await page.locator('#google-key-pem').evaluate((element) => getComputedStyle(element).getPropertyValue('-webkit-text-security'))).toBe('disc');
    // The default example's class and object make a JWT over Google's 1,800 characters: said, with what to do.
    await page.locator('[data-testid=make-google-link]').click();
    await expect.poll(() => page.locator('[data-testid=google-status]').getAttribute('data-code')).toBe('save-link-too-long');
    // A small pass fits in a link.
    await replaceEditorText(
      page,
      `${JSON.stringify({ id: 1, name: 'Small', formatVersion: 1, passType: 'pass.com.example.small', description: { logoText: 'Small', generic: { primaryFields: [{ key: 'n', label: 'Name', value: 'Ada' }] } }, placeholder: [] }, null, 2)}\n`,
    );
    await expect.poll(() => page.locator('[data-testid=pass-preview] [data-testid=logo-text]').textContent()).toBe('Small');
    await page.locator('[data-testid=make-google-link]').click();
    const link = page.locator('[data-testid=google-save-link]');
    await link.waitFor();
    const href = (await link.getAttribute('href')) ?? '';
    expect(href.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const jwt = href.slice('https://pay.google.com/gp/v/save/'.length);
    const [head, body, signature] = jwt.split('.') as [string, string, string];
    const verifier = createVerify('RSA-SHA256');
    verifier.update(`${head}.${body}`);
    expect(verifier.verify(publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { iss: string; typ: string; payload: Record<string, { id: string }[]> };
    expect(claims.iss).toBe('wallet@demo.iam.gserviceaccount.com');
    expect(claims.typ).toBe('savetowallet');
    expect(claims.payload['genericObjects']?.[0]?.id.startsWith('3388000000012345678.')).toBe(true);
    expect(claims.payload['genericClasses']?.[0]?.id.startsWith('3388000000012345678.')).toBe(true);
    // The key is in no URL, no storage and no request.
    await page.waitForTimeout(800);
    const secret = privateKey.split('\n')[1]!;
    expect(page.url()).not.toContain('service_account');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(secret);
    expect(requests.filter((request) => request.includes(secret) || request.includes('service_account'))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
