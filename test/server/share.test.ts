// The share page (`links.share`, `/p/{shareId}`) over real HTTP on both
// engines: a random id per pass that is not its token; server-rendered HTML
// under 50 KB with a strict CSP, no script, no token, no third-party
// address, every pass text escaped (a hostile value is text); the wallet
// buttons in the device's order and a QR code on computers; the language
// from Accept-Language among the pass's .lproj strings; a voided pass's page
// offers nothing; its downloads, Google link and images; rate limited.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { readPass } from '../../src/pkpass/read.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { testServiceAccount } from '../google/keys.js';
import { startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const HOSTILE = '<img src=x onerror=alert(1)></script>';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

for (const engine of ENGINES) {
  describe(`share pages on ${engine.name}`, () => {
    const account = testServiceAccount();
    let database: TestDatabase;
    let google: GoogleStandIn;
    let service: Service;
    let templateId: number;
    let logo: Uint8Array;

    const page = async (path: string, headers: Record<string, string> = {}): Promise<{ status: number; html: string; headers: Headers }> => {
      const response = await fetch(`${service.url}${path}`, { headers });
      return { status: response.status, html: await response.text(), headers: response.headers };
    };
    const shareOf = async (serial: string): Promise<string> => {
      const { body } = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}`);
      return new URL(body.links.share).pathname;
    };

    beforeAll(async () => {
      const pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      [database, google] = await Promise.all([engine.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
      service = await startService(database, {
        signer,
        publicUrl: 'https://passes.example.com',
        issuer: { organizationName: 'Example Club' },
        limits: { ratePerToken: 40 },
        google: { credentials: readGoogleCredentials(account.json), issuerId: '3388000000012345678', apiUrl: google.apiUrl, tokenUrl: google.tokenUrl },
      });
      const { body: template } = await service.call('POST', '/v1/templates', {
        name: 'Member',
        formatVersion: 1,
        passType: PASS_TYPE_IDENTIFIER,
        description: {
          logoText: '${club}',
          backgroundColor: 'rgb(20, 40, 60)',
          foregroundColor: 'rgb(255, 255, 255)',
          labelColor: 'rgb(220, 220, 220)',
          generic: {
            headerFields: [{ key: 'tier', label: 'Tier', value: '${tier}' }],
            primaryFields: [{ key: 'name', label: 'Member', value: '${name}' }],
            secondaryFields: [{ key: 'since', label: 'Since', value: '${since}' }],
          },
        },
        placeholder: ['club', 'tier', 'name', 'since'],
      });
      templateId = template.id;
      logo = png(160, 50);
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/icon.png`, png(29, 29))).status).toBe(201);
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/logo.png`, logo)).status).toBe(201);
      const strings = new TextEncoder().encode('"Member" = "Mitglied";\n"Since" = "Seit";\n');
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/de.lproj/pass.strings`, strings)).status).toBe(201);
      for (const [serial, name] of [
        ['S-1', HOSTILE],
        ['S-2', 'Ada'],
        ['S-3', 'Bo'],
      ]) {
        const made = await service.call('POST', `/v1/templates/${templateId}/passes`, {
          values: { club: 'Swim Club', tier: 'Gold', name, since: '2021' },
          serialNumber: serial,
        });
        expect(made.status).toBe(201);
      }
    });

    afterAll(async () => {
      await service?.close();
      await google?.close();
      await database?.dispose();
    });

    test('links.share: a page per pass at a random 128-bit id, not the token, stored under a unique index', async () => {
      const { body } = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/S-1`);
      const share = new URL(body.links.share);
      expect(share.origin).toBe('https://passes.example.com');
      expect(share.pathname).toMatch(/^\/p\/[A-Za-z0-9_-]{22}$/);
      const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/S-1/passjson`)).body;
      expect(body.links.share).not.toContain(pass.authenticationToken);
      const ids = new Set([await shareOf('S-1'), await shareOf('S-2'), await shareOf('S-3')]);
      expect(ids.size).toBe(3);
      // The list carries it too.
      const list = await service.call('GET', `/v1/passes?templateId=${templateId}`);
      expect(list.body.items.map((item: any) => new URL(item.links.share).pathname).sort()).toEqual([...ids].sort());
      await expect(
        database.db.query(
          `update passmint_passes set share_id = (select share_id from passmint_passes where serial_number = 'S-2') where serial_number = 'S-3'`,
        ),
      ).rejects.toThrow();
    });

    test('the page: small, strict CSP, no script, no token, no third party; a hostile value is text; Open Graph', async () => {
      const path = await shareOf('S-1');
      const { status, html, headers } = await page(path, { 'user-agent': DESKTOP });
      expect(status).toBe(200);
      expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(new TextEncoder().encode(html).length).toBeLessThan(50 * 1024);
      const csp = headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
      expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toContain(HOSTILE);
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;');
      expect(html.match(/<img /g)?.length).toBe(1); // the logo only
      const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/S-1/passjson`)).body;
      expect(html).not.toContain(pass.authenticationToken);
      // Every address the page loads or links to is the service's own (relative), the Open Graph ones at the public origin.
      const addresses = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
      expect(addresses.length).toBeGreaterThan(0);
      expect(addresses.every((address) => address.startsWith('/p/'))).toBe(true);
      expect(html).toContain(`<meta property="og:url" content="https://passes.example.com${path}">`);
      expect(html).toMatch(/<meta property="og:title" content="Example Club: [^"]+">/);
      expect(html).toContain('<meta property="og:image" content="https://passes.example.com/p/images/');
      // The logo is served at that address.
      const logoPath = /<img class="logo" src="([^"]+)"/.exec(html)![1]!;
      const image = await fetch(`${service.url}${logoPath}`);
      expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(logo);
      expect((await fetch(`${service.url}/p/images/${templateId}/${'0'.repeat(64)}/logo.png`)).status).toBe(404);
    });

    test("the device's wallet first: iPhone Apple, Android Google, a computer both and a QR code", async () => {
      const path = await shareOf('S-2');
      const order = (html: string): string[] => [...html.matchAll(/class="wallet (apple|google)"/g)].map((match) => match[1]!);
      const iphone = (await page(path, { 'user-agent': IPHONE })).html;
      expect(order(iphone)).toEqual(['apple', 'google']);
      expect(iphone).not.toContain('<svg');
      const android = (await page(path, { 'user-agent': ANDROID })).html;
      expect(order(android)).toEqual(['google', 'apple']);
      expect(android).not.toContain('<svg');
      const desktop = (await page(path, { 'user-agent': DESKTOP })).html;
      expect(order(desktop)).toEqual(['apple', 'google']);
      expect(desktop).toMatch(/<svg role="img" aria-label="QR code of this page" viewBox="0 0 \d+ \d+"/);
      expect(desktop).toContain(`href="${path}/pass.pkpass"`);
      expect(desktop).toContain(`href="${path}/google"`);
    });

    test('the language: Accept-Language among the pass.strings languages', async () => {
      const path = await shareOf('S-2');
      const german = (await page(path, { 'accept-language': 'de-CH, de;q=0.9, en;q=0.5' })).html;
      expect(german).toContain('<html lang="de">');
      expect(german).toContain('<dt>Mitglied</dt><dd>Ada</dd>');
      expect(german).toContain('Zu Apple Wallet hinzufügen');
      const english = (await page(path, { 'accept-language': 'en-US,en;q=0.9' })).html;
      expect(english).toContain('<html lang="en">');
      expect(english).toContain('<dt>Member</dt><dd>Ada</dd>');
      expect(english).toContain('Add to Apple Wallet');
    });

    test("the buttons: the signed .pkpass and a redirect to Google's save link; unknown links are 404", async () => {
      const path = await shareOf('S-2');
      const pkpass = await fetch(`${service.url}${path}/pass.pkpass`);
      expect(pkpass.status).toBe(200);
      expect(pkpass.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
      const read = await readPass(new Uint8Array(await pkpass.arrayBuffer()));
      expect(read.pass['serialNumber']).toBe('S-2');
      const save = await fetch(`${service.url}${path}/google`, { redirect: 'manual' });
      expect(save.status).toBe(303);
      const jwt = save.headers.get('location')!.replace('https://pay.google.com/gp/v/save/', '');
      const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
      expect(claims.payload.genericObjects.map((object: any) => object.id)).toEqual(['3388000000012345678.pass_2ecom_2eexample_2etest.S-2']);
      const unknown = await page('/p/AAAAAAAAAAAAAAAAAAAAAA');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(unknown.html).toContain('This link does not lead to a pass.');
      expect((await fetch(`${service.url}/p/AAAAAAAAAAAAAAAAAAAAAA/pass.pkpass`)).status).toBe(404);
      expect((await page('/p/not-a-share-id')).status).toBe(404);
    });

    test('a voided pass: the page says so and offers nothing; its download is gone', async () => {
      const path = await shareOf('S-3');
      expect((await service.call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/S-3/void`)).status).toBe(200);
      const { status, html } = await page(path, { 'user-agent': DESKTOP });
      expect(status).toBe(200);
      expect(html).toContain('This pass has been voided: it can no longer be added.');
      expect(html).not.toContain('class="wallet');
      expect(html).not.toContain('<svg');
      expect((await fetch(`${service.url}${path}/pass.pkpass`)).status).toBe(410);
      expect((await fetch(`${service.url}${path}/google`, { redirect: 'manual' })).status).toBe(410);
    });

    test('an expired pass: nothing to add either (410 pass-expired) until it is reactivated', async () => {
      const made = await service.call('POST', `/v1/templates/${templateId}/passes`, {
        values: { club: 'Swim Club', tier: 'Gold', name: 'Cy', since: '2021' },
        serialNumber: 'S-4',
      });
      expect(made.status).toBe(201);
      const path = await shareOf('S-4');
      expect((await service.call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/S-4/expire`)).status).toBe(200);
      const expired = await fetch(`${service.url}${path}/pass.pkpass`);
      expect([expired.status, ((await expired.json()) as { code: string }).code]).toEqual([410, 'pass-expired']);
      expect((await service.call('POST', `/v1/passes/${PASS_TYPE_IDENTIFIER}/S-4/reactivate`)).status).toBe(200);
      expect((await fetch(`${service.url}${path}/pass.pkpass`)).status).toBe(200);
    });

    test('rate limited per link like the download link: 429 with Retry-After', async () => {
      const id = '/p/BBBBBBBBBBBBBBBBBBBBBB';
      const statuses: number[] = [];
      for (let i = 0; i < 41; i++) statuses.push((await fetch(`${service.url}${id}`)).status);
      expect(statuses.slice(0, 40).every((status) => status === 404)).toBe(true);
      const limited = await fetch(`${service.url}${id}`);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
}
