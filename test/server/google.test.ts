// Google Wallet in the service, over real HTTP: the class and object reach the
// Google stand-in (written from Google's documented protocol) through the
// durable queue, a changeMessage becomes an addMessage within Google's 3 a
// day, the save link opens with the API key or the pass's own token, the
// template's images are served at content-named URLs, and a signed callback
// becomes registration.created / registration.deleted with wallet "google".
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { createCallbackSigner, startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { testServiceAccount } from '../google/keys.js';
import { png } from '../pkpass/helpers.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const ISSUER = '3388000000012345678';
const PASS_TYPE = 'pass.com.example.member';
const PUBLIC_URL = 'https://passes.example.com';

/** The claims of a save link's JWT. */
function saveClaims(url: string): any {
  expect(url.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
  const jwt = url.slice('https://pay.google.com/gp/v/save/'.length);
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
}

for (const engine of ENGINES) {
  describe(`Google Wallet in the service on ${engine.name}`, () => {
    const account = testServiceAccount();
    const signer = createCallbackSigner();
    let database: TestDatabase;
    let standIn: GoogleStandIn;
    let service: Service;
    let receiver: Receiver;
    let templateId: number;
    let logo: Uint8Array;

    const objectOf = (serial: string): Record<string, unknown> | undefined =>
      standIn.store.get('genericObject')?.get(`${ISSUER}.pass_2ecom_2eexample_2emember.${serial}`);
    const messagesTo = (serial: string): any[] =>
      standIn.requests
        .filter((request) => request.method === 'POST' && request.path.endsWith(`.${serial}/addMessage`))
        .map((request) => JSON.parse(request.body).message);
    const jobsDone = async (): Promise<boolean> =>
      (await database.db.query<{ n: number }>('select count(*)::int as n from passmint_google_jobs where wanted > done'))[0]!.n === 0;

    beforeAll(async () => {
      [database, standIn, receiver] = await Promise.all([
        engine.open(),
        startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail }),
        startReceiver(),
      ]);
      service = await startService(database, {
        publicUrl: PUBLIC_URL,
        issuer: { teamIdentifier: 'A93A5CM278', organizationName: 'Example' },
        google: {
          credentials: readGoogleCredentials(account.json),
          issuerId: ISSUER,
          apiUrl: standIn.apiUrl,
          tokenUrl: standIn.tokenUrl,
          callbackKeys: signer.rootKeys(),
        },
      });
      const { body: template } = await service.call('POST', '/v1/templates', {
        name: 'Member',
        formatVersion: 1,
        passType: PASS_TYPE,
        description: {
          generic: {
            primaryFields: [{ key: 'level', label: 'Level', value: '${level}', changeMessage: 'Your level is now %@' }],
            secondaryFields: [{ key: 'name', label: 'Name', value: '${name}' }],
          },
        },
        placeholder: ['level', 'name'],
      });
      templateId = template.id;
      logo = png(160, 50);
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/icon.png`, png(29, 29))).status).toBe(201);
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/logo.png`, logo)).status).toBe(201);
    });

    afterAll(async () => {
      await service?.close();
      await standIn?.close();
      await receiver?.close();
      await database?.dispose();
    });

    test("a new pass puts its template's class and its object at Google; the class names the callback and a content-named logo served here", async () => {
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { level: 'Silver', name: 'Ada' }, serialNumber: 'G-1' })).status).toBe(
        201,
      );
      await eventually(() => objectOf('G-1') !== undefined, 10_000, 'the object at the stand-in');
      const classId = `${ISSUER}.pass_2ecom_2eexample_2emember.template-${templateId}`;
      const walletClass = standIn.store.get('genericClass')?.get(classId) as any;
      expect(walletClass.callbackOptions).toEqual({ url: `${PUBLIC_URL}/google/callback` });
      const object = objectOf('G-1') as any;
      expect(object.classId).toBe(classId);
      expect(JSON.stringify(object)).toContain('"Silver"');
      expect(JSON.stringify(object)).toContain('"Ada"');

      // The logo: at the public origin, under its SHA-256; served here without a key, cached for good.
      const hash = createHash('sha256').update(logo).digest('hex');
      const logoUrl = `${PUBLIC_URL}/google/images/${templateId}/${hash}/logo.png`;
      expect(JSON.stringify(walletClass).includes(logoUrl) || JSON.stringify(object).includes(logoUrl)).toBe(true);
      const image = await fetch(`${service.url}/google/images/${templateId}/${hash}/logo.png`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(logo);
      expect((await fetch(`${service.url}/google/images/${templateId}/${'0'.repeat(64)}/logo.png`)).status).toBe(404);
      expect((await fetch(`${service.url}/google/images/${templateId}/${hash}/icon.png`)).status).toBe(404);
      expect((await fetch(`${service.url}/google/images/${templateId}/not-a-hash/logo.png`)).status).toBe(404);
      // Only images: a template's other files stay behind the API key, whatever their hash.
      const strings = new TextEncoder().encode('"Level" = "Stufe";');
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/de.lproj/pass.strings`, strings)).status).toBe(201);
      const stringsHash = createHash('sha256').update(strings).digest('hex');
      expect((await fetch(`${service.url}/google/images/${templateId}/${stringsHash}/de.lproj/pass.strings`)).status).toBe(404);
      expect((await service.call('DELETE', `/v1/templates/${templateId}/files/de.lproj/pass.strings`)).status).toBe(204);
    });

    test('changed values patch the object; a changed field with a changeMessage is a TEXT_AND_NOTIFY message, at most 3 a day', async () => {
      await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { level: 'Bronze', name: 'Bo' }, serialNumber: 'G-2' });
      await eventually(async () => objectOf('G-2') !== undefined && (await jobsDone()), 10_000, 'the object at the stand-in');
      // A change of the field without a changeMessage: patched (one call: Google has the object), no message.
      const seen = standIn.requests.length;
      expect((await service.call('PUT', `/v1/passes/${PASS_TYPE}/G-2/values`, { level: 'Bronze', name: 'Bea' })).status).toBe(200);
      await eventually(async () => JSON.stringify(objectOf('G-2')).includes('"Bea"') && (await jobsDone()), 10_000, 'the patch');
      expect(
        standIn.requests
          .slice(seen)
          .filter((request) => request.path.startsWith('/walletobjects/'))
          .map((request) => `${request.method} ${request.path.split('/').pop()}`),
      ).toEqual([`PATCH ${ISSUER}.pass_2ecom_2eexample_2emember.G-2`]);
      expect(messagesTo('G-2')).toEqual([]);

      const levels = ['Silver', 'Gold', 'Platinum', 'Diamond', 'Titanium'];
      for (const level of levels) {
        expect((await service.call('PUT', `/v1/passes/${PASS_TYPE}/G-2/values`, { level, name: 'Bea' })).status).toBe(200);
        await eventually(async () => JSON.stringify(objectOf('G-2')).includes(`"${level}"`) && (await jobsDone()), 10_000, `the object with ${level}`);
      }
      const sent = messagesTo('G-2');
      expect(sent.map((message) => message.body)).toEqual(['Your level is now Silver', 'Your level is now Gold', 'Your level is now Platinum']);
      expect(sent.every((message) => message.messageType === 'TEXT_AND_NOTIFY' && message.header === 'Level')).toBe(true);
      const metrics = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${service.key}` } })).text();
      expect(metrics).toMatch(/^passmint_google_syncs_owed 0$/m);
      expect(metrics).toMatch(/^passmint_google_syncs_retrying 0$/m);
      const rows = await database.db.query<{ body: string; status: string }>(
        `select body, status from passmint_google_messages where object_id like '%.G-2' order by id`,
      );
      expect(rows).toEqual([
        { body: 'Your level is now Silver', status: 'sent' },
        { body: 'Your level is now Gold', status: 'sent' },
        { body: 'Your level is now Platinum', status: 'sent' },
        { body: 'Your level is now Diamond', status: 'over-limit' },
        { body: 'Your level is now Titanium', status: 'over-limit' },
      ]);
    });

    test('a template change sends the class again; a new logo gets a new address and the old one is gone', async () => {
      const classRequests = (): number => standIn.requests.filter((request) => request.path.includes('/genericClass')).length;
      const before = classRequests();
      const { body: template } = await service.call('GET', `/v1/templates/${templateId}`);
      expect((await service.call('PUT', `/v1/templates/${templateId}`, { ...template, name: 'Member card' })).status).toBe(200);
      await eventually(() => classRequests() > before, 10_000, 'the class sent again');

      const oldHash = createHash('sha256').update(logo).digest('hex');
      const newLogo = png(160, 50, 0x20);
      const newHash = createHash('sha256').update(newLogo).digest('hex');
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/logo.png`, newLogo)).status).toBe(201);
      const classId = `${ISSUER}.pass_2ecom_2eexample_2emember.template-${templateId}`;
      // A generic pass's logo is on its object: every object of the template gets the new address.
      await eventually(
        () => ['G-1', 'G-2'].every((serial) => JSON.stringify(objectOf(serial)).includes(newHash)) && !JSON.stringify(objectOf('G-1')).includes(oldHash),
        10_000,
        'the objects with the new logo',
      );
      expect(standIn.store.get('genericClass')?.get(classId)).toBeDefined();
      expect((await fetch(`${service.url}/google/images/${templateId}/${oldHash}/logo.png`)).status).toBe(404);
      const image = await fetch(`${service.url}/google/images/${templateId}/${newHash}/logo.png`);
      expect(image.status).toBe(200);
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(newLogo);

      // The template's translations reach the objects as Google's translated values.
      const strings = new TextEncoder().encode('"Level" = "Stufe";');
      expect((await service.call('PUT', `/v1/templates/${templateId}/files/de.lproj/pass.strings`, strings)).status).toBe(201);
      await eventually(() => JSON.stringify(objectOf('G-1')).includes('"Stufe"'), 10_000, 'the translated label');
      expect(JSON.stringify(objectOf('G-1'))).toContain('"de"');
      expect((await service.call('DELETE', `/v1/templates/${templateId}/files/de.lproj/pass.strings`)).status).toBe(204);

      // A logo taken away is cleared at Google (a patch leaving it out would keep it).
      expect(objectOf('G-1')!['logo']).toBeTruthy();
      expect((await service.call('DELETE', `/v1/templates/${templateId}/files/logo.png`)).status).toBe(204);
      await eventually(() => objectOf('G-1')!['logo'] === null, 10_000, 'the logo cleared');
      expect(JSON.stringify(objectOf('G-1'))).not.toContain('"Stufe"');
    });

    test("a deleted pass's object becomes INACTIVE", async () => {
      await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { level: 'Gold', name: 'Ed' }, serialNumber: 'G-5' });
      await eventually(() => objectOf('G-5') !== undefined, 10_000, 'the object at the stand-in');
      expect(objectOf('G-5')!['state']).not.toBe('INACTIVE');
      expect((await service.call('DELETE', `/v1/passes/${PASS_TYPE}/G-5`)).status).toBe(204);
      await eventually(() => objectOf('G-5')!['state'] === 'INACTIVE', 10_000, 'the object INACTIVE');
    });

    test("the save link: JSON with the API key, a redirect with the pass's own token, 401 without either", async () => {
      await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { level: 'Gold', name: 'Cy' }, serialNumber: 'G-3' });
      const link = await service.call('GET', `/v1/passes/${PASS_TYPE}/G-3/google`);
      expect(link.status).toBe(200);
      expect(link.body.objectId).toBe(`${ISSUER}.pass_2ecom_2eexample_2emember.G-3`);
      expect(link.body.type).toBe('generic');
      const claims = saveClaims(link.body.url);
      expect(claims.aud).toBe('google');
      expect(claims.typ).toBe('savetowallet');
      expect(claims.iss).toBe(account.clientEmail);
      expect(claims.payload.genericObjects[0].id).toBe(link.body.objectId);
      expect(claims.payload.genericClasses[0].id).toBe(link.body.classId);

      const token = (await service.call('GET', `/v1/passes/${PASS_TYPE}/G-3/passjson`)).body.authenticationToken as string;
      // The pass resource links the holder's link (at the public origin).
      const { body: resource } = await service.call('GET', `/v1/passes/${PASS_TYPE}/G-3`);
      expect(resource.links.google).toBe(`${PUBLIC_URL}/v1/passes/${PASS_TYPE}/G-3/google?token=${encodeURIComponent(token)}`);
      const opened = await fetch(`${service.url}/v1/passes/${PASS_TYPE}/G-3/google?token=${encodeURIComponent(token)}`, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      expect(saveClaims(opened.headers.get('location')!).payload.genericObjects[0].id).toBe(link.body.objectId);

      const wrong = await fetch(`${service.url}/v1/passes/${PASS_TYPE}/G-3/google?token=${'x'.repeat(token.length)}`, { redirect: 'manual' });
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).code).toBe('invalid-credentials');
      const none = await fetch(`${service.url}/v1/passes/${PASS_TYPE}/G-3/google`, { redirect: 'manual' });
      expect(none.status).toBe(401);
      expect((await none.json()).code).toBe('missing-credentials');
      const missing = await service.call('GET', `/v1/passes/${PASS_TYPE}/NOPE/google`);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('pass-not-found');
    });

    test('a signed save callback is registration.created with wallet "google"; a repeat is dropped; delete is registration.deleted', async () => {
      const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/google` });
      expect(hook.body.state).toBe('enabled');
      receiver.secrets.set('/google', [hook.body.secret]);
      await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { level: 'Gold', name: 'Di' }, serialNumber: 'G-4' });
      await eventually(() => objectOf('G-4') !== undefined, 10_000, 'the object at the stand-in');
      const objectId = `${ISSUER}.pass_2ecom_2eexample_2emember.G-4`;
      const classId = `${ISSUER}.pass_2ecom_2eexample_2emember.template-${templateId}`;
      const callback = (eventType: 'save' | 'del', nonce: string): string =>
        signer.sign({
          issuerId: ISSUER,
          message: { classId, objectId, expTimeMillis: Date.now() + 60_000, eventType, nonce },
          intermediateExpiration: Date.now() + 3_600_000,
        });
      const post = (body: string): Promise<Response> =>
        fetch(`${service.url}/google/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

      const save = callback('save', 'nonce-save-1');
      expect((await post(save)).status).toBe(200);
      await eventually(
        () => receiver.received.some((entry) => entry.path === '/google' && entry.event.type === 'registration.created'),
        10_000,
        'registration.created',
      );
      const created = receiver.received.find((entry) => entry.event.type === 'registration.created')!;
      expect(created.signatureValid).toBe(true);
      expect(created.event.data).toEqual({ serialNumber: 'G-4', passTypeIdentifier: PASS_TYPE, wallet: 'google', objectId });

      // Google delivers at least once: the same nonce again is acknowledged and dropped.
      expect((await post(save)).status).toBe(200);
      expect((await post(callback('save', 'nonce-save-1'))).status).toBe(200);
      expect((await post(callback('del', 'nonce-del-1'))).status).toBe(200);
      await eventually(
        () => receiver.received.some((entry) => entry.path === '/google' && entry.event.type === 'registration.deleted'),
        10_000,
        'registration.deleted',
      );
      const deleted = receiver.received.find((entry) => entry.event.type === 'registration.deleted')!;
      expect(deleted.event.data).toEqual({ serialNumber: 'G-4', passTypeIdentifier: PASS_TYPE, wallet: 'google', objectId });
      const stored = await database.db.query<{ type: string }>(
        `select type from passmint_events where type like 'registration.%' and body like '%"wallet":"google"%' order by seq`,
      );
      expect(stored.map((row) => row.type)).toEqual(['registration.created', 'registration.deleted']);
    });

    test("a callback that is not Google's is refused with its reason, and tells nobody", async () => {
      const objectId = `${ISSUER}.pass_2ecom_2eexample_2emember.G-1`;
      const message = { classId: 'x', objectId, expTimeMillis: Date.now() + 60_000, eventType: 'save', nonce: 'nonce-bad' };
      const post = (body: string): Promise<Response> =>
        fetch(`${service.url}/google/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const count = async (): Promise<number> =>
        (await database.db.query<{ n: number }>(`select count(*)::int as n from passmint_events where type like 'registration.%'`))[0]!.n;
      const before = await count();

      const valid = JSON.parse(signer.sign({ issuerId: ISSUER, message, intermediateExpiration: Date.now() + 3_600_000 }));
      const tampered = JSON.stringify({ ...valid, signedMessage: valid.signedMessage.replace('nonce-bad', 'nonce-bax') });
      const tamperedAnswer = await post(tampered);
      expect(tamperedAnswer.status).toBe(401);
      expect(await tamperedAnswer.json()).toMatchObject({ code: 'invalid-callback', detail: 'The callback was refused: signature-invalid.' });

      const otherRoot = createCallbackSigner();
      const foreign = await post(otherRoot.sign({ issuerId: ISSUER, message, intermediateExpiration: Date.now() + 3_600_000 }));
      expect(foreign.status).toBe(401);
      expect((await foreign.json()).code).toBe('invalid-callback');

      const otherIssuer = await post(signer.sign({ issuerId: '1111', message, intermediateExpiration: Date.now() + 3_600_000 }));
      expect(otherIssuer.status).toBe(401);

      const expired = await post(
        signer.sign({ issuerId: ISSUER, message: { ...message, expTimeMillis: Date.now() - 1000 }, intermediateExpiration: Date.now() + 3_600_000 }),
      );
      expect(expired.status).toBe(401);
      expect((await expired.json()).detail).toBe('The callback was refused: message-expired.');

      for (const body of ['not json', '{}', JSON.stringify({ ...valid, protocolVersion: 'ECv1' })]) {
        const answer = await post(body);
        expect(answer.status).toBe(400);
        expect((await answer.json()).code).toBe('invalid-callback');
      }
      const tooLarge = await post('x'.repeat(70_000));
      expect(tooLarge.status).toBe(413);
      expect(await count()).toBe(before);
    });
  });
}

describe('Google Wallet links too long to carry the pass', () => {
  const account = testServiceAccount();
  let database: TestDatabase;
  let standIn: GoogleStandIn;

  beforeAll(async () => {
    [database, standIn] = await Promise.all([ENGINES[0]!.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
  });
  afterAll(async () => {
    await standIn?.close();
    await database?.dispose();
  });

  test('are 503 until the queue inserted the object, then link it by id', async () => {
    const google = { credentials: readGoogleCredentials(account.json), issuerId: ISSUER, apiUrl: standIn.apiUrl, tokenUrl: standIn.tokenUrl };
    // No workers: nothing reaches Google yet.
    const idle = await startService(database, { google, workers: false });
    const { body: template } = await idle.call('POST', '/v1/templates', {
      name: 'Long',
      formatVersion: 1,
      passType: PASS_TYPE,
      description: { generic: { primaryFields: [{ key: 'a', label: 'A', value: '${a}' }], backFields: [{ key: 'terms', label: 'Terms', value: '${terms}' }] } },
      placeholder: ['a', 'terms'],
    });
    await idle.call('POST', `/v1/templates/${template.id}/passes`, {
      values: { a: 'x', terms: 'Terms and conditions apply. '.repeat(80) },
      serialNumber: 'L-1',
    });
    const early = await idle.call('GET', `/v1/passes/${PASS_TYPE}/L-1/google`);
    expect(early.status).toBe(503);
    expect(early.body.code).toBe('google-not-ready');
    expect(early.headers.get('retry-after')).toBe('5');
    await idle.close();

    const working = await startService(database, { google });
    const objectId = `${ISSUER}.pass_2ecom_2eexample_2emember.L-1`;
    await eventually(() => standIn.store.get('genericObject')?.has(objectId) === true, 10_000, 'the object inserted');
    await eventually(async () => (await working.call('GET', `/v1/passes/${PASS_TYPE}/L-1/google`)).status === 200, 10_000, 'the link');
    const link = await working.call('GET', `/v1/passes/${PASS_TYPE}/L-1/google`);
    const claims = saveClaims(link.body.url);
    expect(claims.payload.genericObjects).toEqual([{ id: objectId, classId: link.body.classId }]);
    expect(claims.payload.genericClasses).toBeUndefined();
    expect(link.body.url.length).toBeLessThan(1800 + 40);
    await working.close();
  });

  test("a callback while Google's root keys cannot be fetched is 503 google-keys-unavailable", async () => {
    const asked: string[] = [];
    const offline: typeof fetch = async (input) => {
      asked.push(String(input instanceof Request ? input.url : input));
      return new Response('unavailable', { status: 503 });
    };
    const service = await startService(database, {
      google: { credentials: readGoogleCredentials(account.json), issuerId: ISSUER, apiUrl: standIn.apiUrl, tokenUrl: standIn.tokenUrl, fetch: offline },
    });
    const body = createCallbackSigner().sign({
      issuerId: ISSUER,
      message: { classId: 'c', objectId: 'o', expTimeMillis: Date.now() + 60_000, eventType: 'save', nonce: 'n' },
      intermediateExpiration: Date.now() + 3_600_000,
    });
    const answer = await fetch(`${service.url}/google/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('60');
    expect((await answer.json()).code).toBe('google-keys-unavailable');
    expect(asked).toEqual(['https://pay.google.com/gp/m/issuer/keys']);
    // A second callback within the minute does not ask Google again.
    expect((await fetch(`${service.url}/google/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(503);
    expect(asked).toHaveLength(1);
    await service.close();
  });

  test('a service without Google answers 409 google-not-configured, and no callback route', async () => {
    const plain = await startService(database);
    const { status, body: template } = await plain.call('POST', '/v1/templates', {
      name: 'Plain',
      formatVersion: 1,
      passType: 'pass.com.example.plain',
      description: { generic: { primaryFields: [{ key: 'a', value: '${a}' }] } },
      placeholder: ['a'],
    });
    expect(status).toBe(201);
    expect((await plain.call('POST', `/v1/templates/${template.id}/passes`, { values: { a: 'x' }, serialNumber: 'P-1' })).status).toBe(201);
    const link = await plain.call('GET', '/v1/passes/pass.com.example.plain/P-1/google');
    expect(link.status).toBe(409);
    expect(link.body.code).toBe('google-not-configured');
    const resource = await plain.call('GET', '/v1/passes/pass.com.example.plain/P-1');
    expect(resource.body.links.pkpass).toContain('/pkpass?token=');
    expect(resource.body.links.google).toBeUndefined();
    expect((await fetch(`${plain.url}/google/callback`, { method: 'POST', body: '{}' })).status).toBe(404);
    const jobs = await database.db.query<{ n: number }>(
      `select count(*)::int as n from passmint_google_jobs where pass_type_identifier = 'pass.com.example.plain'`,
    );
    expect(jobs[0]!.n).toBe(0);
    await plain.close();
  });
});

describe('Google refusing a message for its own count', () => {
  const account = testServiceAccount();
  let database: TestDatabase;
  let standIn: GoogleStandIn;

  beforeAll(async () => {
    [database, standIn] = await Promise.all([ENGINES[0]!.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
  });
  afterAll(async () => {
    await standIn?.close();
    await database?.dispose();
  });

  test('the update stands and the message is recorded over-limit, not retried', async () => {
    // Google answers every addMessage 429 (its count: the pass had 3 notifications from elsewhere).
    let refused = 0;
    const fetchThrough: typeof fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/addMessage')) {
        refused++;
        return new Response(JSON.stringify({ error: { code: 429, message: 'QuotaExceededException', status: 'RESOURCE_EXHAUSTED' } }), {
          status: 429,
          headers: { 'content-type': 'application/json' },
        });
      }
      return fetch(input, init);
    };
    const service = await startService(database, {
      google: { credentials: readGoogleCredentials(account.json), issuerId: ISSUER, apiUrl: standIn.apiUrl, tokenUrl: standIn.tokenUrl, fetch: fetchThrough },
    });
    const { body: template } = await service.call('POST', '/v1/templates', {
      name: 'Gate',
      formatVersion: 1,
      passType: PASS_TYPE,
      description: { generic: { primaryFields: [{ key: 'gate', label: 'Gate', value: '${gate}', changeMessage: 'Gate changed to %@' }] } },
      placeholder: ['gate'],
    });
    await service.call('POST', `/v1/templates/${template.id}/passes`, { values: { gate: 'A1' }, serialNumber: 'Q-1' });
    const object = (): string => JSON.stringify(standIn.store.get('genericObject')?.get(`${ISSUER}.pass_2ecom_2eexample_2emember.Q-1`) ?? null);
    const owed = async (): Promise<number> =>
      (await database.db.query<{ n: number }>('select count(*)::int as n from passmint_google_jobs where wanted > done'))[0]!.n;
    await eventually(async () => object().includes('"A1"') && (await owed()) === 0, 10_000, 'the object');
    await service.call('PUT', `/v1/passes/${PASS_TYPE}/Q-1/values`, { gate: 'B2' });
    await eventually(async () => object().includes('"B2"') && (await owed()) === 0, 10_000, 'the update');
    expect(refused).toBeGreaterThan(0);
    const rows = await database.db.query<{ body: string; status: string }>(`select body, status from passmint_google_messages where object_id like '%.Q-1'`);
    expect(rows).toEqual([{ body: 'Gate changed to B2', status: 'over-limit' }]);
    await service.close();
  });
});
