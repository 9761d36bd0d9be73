import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { toGoogleWallet } from '../../src/google/index.js';
import { encodePassStrings } from '../../src/pkpass/index.js';
import type { Pass } from '../../src/index.js';
import { buildPass, type TemplateValues } from '../../src/index.js';
import { examples } from '../../playground/examples/index.js';
import { issuer } from '../fixtures.js';
import { testServiceAccount } from '../google/keys.js';
import { resourceNames, schemaProblems } from '../google/schema.js';
import { startGoogleStandIn } from '../google/stand-in.js';
import { captureIo, tempDir } from './io.js';

const pass: Pass = {
  formatVersion: 1,
  passTypeIdentifier: 'pass.com.example.event',
  serialNumber: 'A-1',
  teamIdentifier: 'A93A5CM278',
  organizationName: 'Example Events',
  description: 'Ticket',
  foregroundColor: 'rgb(255, 255, 255)',
  backgroundColor: 'rgb(60, 65, 76)',
  generic: { primaryFields: [{ key: 'event', label: 'Event', value: 'Concert' }], secondaryFields: [{ key: 'seat', label: 'Seat', value: '12B' }] },
};
const issuerId = '3388000000012345678';

let dir: string;
let remove: () => void;
beforeAll(() => {
  ({ dir, remove } = tempDir('google'));
  mkdirSync(join(dir, 'bundle/de.lproj'), { recursive: true });
  writeFileSync(join(dir, 'bundle/pass.json'), JSON.stringify(pass));
  writeFileSync(join(dir, 'bundle/logo.png'), 'png');
  writeFileSync(join(dir, 'bundle/icon.png'), 'png');
  writeFileSync(join(dir, 'bundle/de.lproj/pass.strings'), encodePassStrings(new Map([['Seat', 'Sitz']])));
  writeFileSync(join(dir, 'key.json'), testServiceAccount().json);
  writeFileSync(join(dir, 'oauth.json'), JSON.stringify({ web: { client_id: 'x' } }));
  writeFileSync(join(dir, 'broken.json'), '{"formatVersion": 1,');
});
afterAll(() => remove());

async function google(...args: string[]) {
  const captured = captureIo(dir);
  const code = await run(['google', ...args], captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe('passmint google map', () => {
  test('--json prints exactly what toGoogleWallet gives, with the folder’s strings and hosted images', async () => {
    const result = await google('map', 'bundle', '--issuer-id', issuerId, '--image-base', 'https://img.example/p/', '--json');
    expect(result.code).toBe(0);
    const expected = toGoogleWallet(pass, {
      issuerId,
      strings: { de: { Seat: 'Sitz' } },
      imageUrl: (path) => (['logo.png', 'icon.png'].includes(path) ? `https://img.example/p/${path}` : undefined),
    });
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(expected.object['logo']).toEqual({ sourceUri: { uri: 'https://img.example/p/logo.png' } });
    expect(expected.losses.map((loss) => `${loss.code} ${loss.path}`)).toEqual([
      'google-image-dropped ',
      'google-key-dropped /description',
      'google-color-dropped /foregroundColor',
    ]);
  });

  test('the text report names the type, the class, the object and each loss with its pointer', async () => {
    const result = await google('map', 'bundle/pass.json');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Google Wallet type: generic');
    expect(result.stdout).toContain('Class (genericClass):');
    expect(result.stdout).toContain('"id": "0.pass_2ecom_2eexample_2eevent.A-1"');
    expect(result.stdout).toContain('Losses (2): what Apple Wallet shows and Google Wallet will not');
    expect(result.stdout).toContain(
      'bundle/pass.json#/foregroundColor  google-color-dropped  Google Wallet picks the text color from the background: foregroundColor is left out.',
    );
  });

  test('an iOS 27 posterGeneric pass alone maps to generic; the poster images beside a lone pass.json are named as losses', async () => {
    mkdirSync(join(dir, 'poster'), { recursive: true });
    const poster = {
      ...pass,
      generic: undefined,
      posterGeneric: { primaryFields: [{ key: 'title', value: 'Festival' }], footerFields: [{ key: 'f', value: 'Bring ID' }] },
      featuredActions: [{ identifier: 'a', type: 'shop', url: 'https://example.com' }],
    };
    writeFileSync(join(dir, 'poster/pass.json'), JSON.stringify(poster));
    writeFileSync(join(dir, 'poster/artwork@2x.png'), 'png');
    writeFileSync(join(dir, 'poster/primaryLogo.png'), 'png');
    const result = await google('map', 'poster/pass.json', '--issuer-id', issuerId, '--image-base', 'https://img.example/p/', '--json');
    expect(result.code).toBe(0);
    const mapped = JSON.parse(result.stdout) as {
      type: string;
      object: { header: unknown; textModulesData: unknown };
      losses: { code: string; path: string; message: string }[];
    };
    expect(mapped.type).toBe('generic');
    expect(mapped.object.textModulesData).toEqual([{ id: 'f', body: 'Bring ID' }]);
    expect(mapped.losses.map((loss) => `${loss.code} ${loss.path}`)).toEqual([
      'google-image-dropped ',
      'google-image-dropped ',
      'google-key-dropped /description',
      'google-color-dropped /foregroundColor',
      'google-ios-key-dropped /featuredActions',
    ]);
    expect(mapped.losses.slice(0, 2).map((loss) => loss.message)).toEqual([
      'Google Wallet has no slot for artwork.png: it is left out.',
      'Google Wallet has no slot for primaryLogo.png: it is left out.',
    ]);
  });

  test('images: the largest version the folder holds is the one Google gets', async () => {
    mkdirSync(join(dir, 'scaled'), { recursive: true });
    writeFileSync(join(dir, 'scaled/pass.json'), JSON.stringify(pass));
    for (const name of ['logo.png', 'logo@2x.png', 'logo@3x.png', 'strip@2x.png']) writeFileSync(join(dir, 'scaled', name), 'png');
    const result = await google('map', 'scaled', '--issuer-id', issuerId, '--image-base', 'https://img.example/p/', '--json');
    const mapped = JSON.parse(result.stdout) as { object: { logo: unknown; heroImage: unknown } };
    expect(mapped.object.logo).toEqual({ sourceUri: { uri: 'https://img.example/p/logo@3x.png' } });
    expect(mapped.object.heroImage).toEqual({ sourceUri: { uri: 'https://img.example/p/strip@2x.png' } });
  });

  test('a file that is not a pass: exit 1', async () => {
    expect((await google('map', 'broken.json')).code).toBe(1);
    expect(await google('map', 'key.json')).toMatchObject({ code: 1, stderr: expect.stringContaining('invalid-pass') });
  });

  test('usage errors: exit 2', async () => {
    expect((await google()).code).toBe(2);
    expect((await google('show', 'bundle')).code).toBe(2);
    expect((await google('map')).code).toBe(2);
    expect((await google('link', 'bundle', '--credentials', 'key.json')).stderr).toContain('--issuer-id');
  });
});

describe('passmint google link', () => {
  test('prints the signed save link holding the class and object', async () => {
    const result = await google('link', 'bundle', '--credentials', 'key.json', '--issuer-id', issuerId, '--origin', 'https://example.com');
    expect(result.code).toBe(0);
    const url = result.stdout.trim();
    expect(url).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = JSON.parse(Buffer.from(url.split('/').pop()!.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
    expect(claims).toMatchObject({ aud: 'google', typ: 'savetowallet', origins: ['https://example.com'] });
    expect(claims['payload']['genericObjects'][0]['id']).toBe(`${issuerId}.pass_2ecom_2eexample_2eevent.A-1`);
    expect(result.stderr).toContain('google-color-dropped');
  });

  test('an OAuth client file instead of a service-account key: exit 1 with the code', async () => {
    const result = await google('link', 'bundle', '--credentials', 'oauth.json', '--issuer-id', issuerId);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not-service-account');
  });
});

describe('passmint google link --insert', () => {
  /** The playground's poster event ticket, rendered: too large for a link that carries the class and object. */
  const posterEvent = (): Pass => {
    const example = examples.find((entry) => entry.id === 'poster-event')!;
    const values = Object.fromEntries(
      Object.entries(example.values).map(([name, value]) => [name, value.json ? JSON.parse(value.text) : value.text]),
    ) as TemplateValues;
    return buildPass(example.template, values, issuer);
  };
  const claimsOf = (url: string) => JSON.parse(Buffer.from(url.split('/').pop()!.split('.')[1]!, 'base64url').toString()) as Record<string, any>;

  test('a pass too large for a link: without --insert it fails and says to insert; with it, class and object go to Google (the REST API on a stand-in) and the short link names the object', async () => {
    const account = testServiceAccount();
    const standIn = await startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail });
    try {
      mkdirSync(join(dir, 'poster-event'), { recursive: true });
      writeFileSync(join(dir, 'poster-event/pass.json'), JSON.stringify(posterEvent()));
      const tooLong = await google('link', 'poster-event', '--credentials', 'key.json', '--issuer-id', issuerId);
      expect(tooLong.code).toBe(1);
      expect(tooLong.stderr).toContain('save-link-too-long');
      expect(tooLong.stderr).toContain('Run again with --insert');

      const result = await google(
        'link',
        'poster-event',
        '--insert',
        '--credentials',
        'key.json',
        '--issuer-id',
        issuerId,
        '--origin',
        'https://example.com',
        '--google-api-url',
        standIn.apiUrl,
        '--google-token-url',
        standIn.tokenUrl,
      );
      expect(result.code).toBe(0);
      const url = result.stdout.trim();
      expect(url.length).toBeLessThan(1800);
      const objectId = `${issuerId}.pass_2ecom_2eexample_2etickets.${issuer.serialNumber}`;
      const classId = `${issuerId}.pass_2ecom_2eexample_2etickets`;
      expect(claimsOf(url)).toMatchObject({
        aud: 'google',
        typ: 'savetowallet',
        origins: ['https://example.com'],
        payload: { eventTicketObjects: [{ id: objectId, classId }] },
      });
      expect(Object.keys(claimsOf(url)['payload'])).toEqual(['eventTicketObjects']);
      // What Google now holds is what the mapping gives — and valid against Google's schema.
      const expected = toGoogleWallet(posterEvent(), { issuerId, strings: {} });
      const stored = { class: standIn.store.get('eventTicketClass')?.get(classId), object: standIn.store.get('eventTicketObject')?.get(objectId) };
      expect(stored).toEqual(JSON.parse(JSON.stringify({ class: expected.class, object: expected.object })));
      expect([
        ...schemaProblems(stored.class, resourceNames('eventTicket').class),
        ...schemaProblems(stored.object, resourceNames('eventTicket').object),
      ]).toEqual([]);
      expect(result.stderr).toContain(`eventTicketObject ${objectId} inserted or updated`);
      expect(standIn.requests.filter((request) => request.path.startsWith('/walletobjects/')).map((request) => `${request.method} ${request.path}`)).toEqual([
        'POST /walletobjects/v1/eventTicketClass',
        'POST /walletobjects/v1/eventTicketObject',
      ]);

      // Again (the ids exist): updated, not refused — and the same link.
      const again = await google(
        'link',
        'poster-event',
        '--insert',
        '--credentials',
        'key.json',
        '--issuer-id',
        issuerId,
        '--origin',
        'https://example.com',
        '--google-api-url',
        standIn.apiUrl,
        '--google-token-url',
        standIn.tokenUrl,
      );
      expect(again.code).toBe(0);
      expect(claimsOf(again.stdout.trim())['payload']).toEqual(claimsOf(url)['payload']);
      expect(
        standIn.requests
          .filter((request) => request.path.startsWith('/walletobjects/'))
          .map((request) => request.method)
          .slice(2),
      ).toEqual(['POST', 'PATCH', 'POST', 'PATCH']);
    } finally {
      await standIn.close();
    }
  });

  test("Google refusing the insert: exit 1 with Google's reason; --insert with map is a usage error", async () => {
    const account = testServiceAccount();
    const standIn = await startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail });
    try {
      standIn.force({ status: 400 }, 1);
      const result = await google(
        'link',
        'bundle',
        '--insert',
        '--credentials',
        'key.json',
        '--issuer-id',
        issuerId,
        '--google-api-url',
        standIn.apiUrl,
        '--google-token-url',
        standIn.tokenUrl,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('passmint google: invalid-argument');
      expect(result.stdout).toBe('');
      expect((await google('map', 'bundle', '--insert')).code).toBe(2);
    } finally {
      await standIn.close();
    }
  });
});
