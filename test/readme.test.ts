import { expect, test } from 'vitest';
import { buildPass, definePassTemplate } from '../src/index.js';

// The README's first pass and its signing, in substance (test/cli/readme.test.ts
// runs the README's samples themselves against the built package): a
// development identity, the team read from its certificate, the pass packed
// and verified. If this changes, change the README.
test("the README example builds a valid pass with the certificate's team, and signs it", async () => {
  const { createDevelopmentIdentity, createPassSigner, packPass, pkpassHeaders, prepareFiles, verifyPass } = await import('../src/pkpass/index.js');
  const { png } = await import('./pkpass/helpers.js');
  const identity = await createDevelopmentIdentity({ passTypeIdentifier: 'pass.com.example.event' });
  const signer = await createPassSigner({ certificate: identity.certificate, privateKey: identity.privateKey, wwdr: identity.wwdr });
  const template = definePassTemplate({
    id: 42,
    name: 'Event ticket',
    formatVersion: 1,
    passType: 'pass.com.example.event',
    description: {
      barcode: { message: '${barcode}', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
      logoText: '${eventName}',
      foregroundColor: '#ffffff',
      backgroundColor: 'rgb(60, 65, 76)',
      generic: {
        primaryFields: [{ key: 'event', value: '${eventName}' }],
        secondaryFields: [{ key: 'seat', label: 'Seat', value: 'Row ${seat}', textAlignment: 'PKTextAlignmentRight' }],
      },
    },
    placeholder: ['eventName', 'seat', 'barcode'],
  });
  const pass = buildPass(
    template,
    { eventName: 'Concert', seat: '12B', barcode: 'ABC123456' },
    { teamIdentifier: signer.teamIdentifier, organizationName: 'Example Events', webServiceURL: 'https://passes.example.com/' },
  );
  expect(pass.teamIdentifier).toBe('DEVTEAM123');
  expect(pass.foregroundColor).toBe('rgb(255, 255, 255)');
  expect(pass.serialNumber).toMatch(/^[0-9a-f-]{36}$/);
  expect(pass.authenticationToken).toMatch(/^[0-9a-f-]{36}$/);
  expect(pass.generic?.secondaryFields?.[0]?.value).toBe('Row 12B');
  expect(pass.webServiceURL).toBe('https://passes.example.com/');

  const files = await prepareFiles({ 'icon.png': png(29, 29), 'icon@2x.png': png(58, 58) });
  const pkpass = await packPass(pass, files, signer);
  const report = await verifyPass(pkpass, { roots: [identity.root] });
  const response = new Response(pkpass, { headers: pkpassHeaders('ticket.pkpass') });
  expect(report.ok).toBe(true);
  expect(report.issues.map((issue) => issue.code)).toEqual(['development-certificate']);
  expect(response.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
}, 60_000);

// With Apple's kind of chain: files read from a folder, a throwaway openssl PKI
// standing in for Apple's, and the served bytes checked by openssl.
test('the README pkpass example signs a pass that openssl and verifyPass accept', async () => {
  const { readFile, writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { createPassSigner, encodePassStrings, packPass, pkpassHeaders, prepareFiles, verifyPass } = await import('../src/pkpass/index.js');
  const { makePki } = await import('./pkpass/pki.js');
  const { opensslVerifyPackage, png, tempDir } = await import('./pkpass/helpers.js');
  const pki = await makePki();
  const { dir, done } = tempDir();
  try {
    await writeFile(join(dir, 'certificate.pem'), pki.certPem);
    await writeFile(join(dir, 'key.pem'), pki.keyPem);
    await writeFile(join(dir, 'AppleWWDRCAG4.cer'), pki.wwdrDer);
    await writeFile(join(dir, 'icon.png'), png(29, 29));
    await writeFile(join(dir, 'icon@2x.png'), png(58, 58));
    const at = (name: string): string => join(dir, name);

    const signer = await createPassSigner({
      certificate: await readFile(at('certificate.pem'), 'utf8'),
      privateKey: await readFile(at('key.pem'), 'utf8'),
      wwdr: await readFile(at('AppleWWDRCAG4.cer')),
    });
    const files = await prepareFiles({
      'icon.png': await readFile(at('icon.png')),
      'icon@2x.png': await readFile(at('icon@2x.png')),
      'de.lproj/pass.strings': encodePassStrings({ Seat: 'Sitzplatz' }),
    });
    const template = definePassTemplate({
      id: 42,
      name: 'Event ticket',
      formatVersion: 1,
      passType: 'pass.com.example.test',
      description: {
        eventTicket: { primaryFields: [{ key: 'event', value: '${eventName}' }], secondaryFields: [{ key: 'seat', label: 'Seat', value: '${seat}' }] },
      },
      placeholder: ['eventName', 'seat'],
    });
    const values = { eventName: 'Concert', seat: '12B' };
    const pass = buildPass(template, values, { teamIdentifier: signer.teamIdentifier, organizationName: 'Example Events' });
    const pkpass = await packPass(pass, files, signer);
    const response = new Response(pkpass, { headers: pkpassHeaders('ticket.pkpass') });

    expect(response.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="ticket.pkpass"');
    const served = new Uint8Array(await response.arrayBuffer());
    expect(await opensslVerifyPackage(served, pki.rootPath)).toBe(0);
    const report = await verifyPass(served, { roots: [pki.rootPem] });
    expect(report.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(report.ok).toBe(true);
  } finally {
    done();
  }
});

// "The same pass, for Google Wallet": the README's lines, with a throwaway service account.
test('the README Google example maps the pass and signs an Add to Google Wallet link', async () => {
  const { createSaveUrl, readGoogleCredentials, toGoogleWallet } = await import('../src/google/index.js');
  const { testServiceAccount } = await import('./google/keys.js');
  const template = definePassTemplate({
    id: 42,
    name: 'Event ticket',
    formatVersion: 1,
    passType: 'pass.com.example.event',
    description: {
      barcode: { message: '${barcode}', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
      logoText: '${eventName}',
      foregroundColor: '#ffffff',
      backgroundColor: 'rgb(60, 65, 76)',
      generic: {
        primaryFields: [{ key: 'event', value: '${eventName}' }],
        secondaryFields: [{ key: 'seat', label: 'Seat', value: 'Row ${seat}', textAlignment: 'PKTextAlignmentRight' }],
      },
    },
    placeholder: ['eventName', 'seat', 'barcode'],
  });
  const pass = buildPass(
    template,
    { eventName: 'Concert', seat: '12B', barcode: 'ABC123456' },
    { teamIdentifier: 'A93A5CM278', organizationName: 'Example Events', serialNumber: 'ticket-1' },
  );

  const credentials = readGoogleCredentials(testServiceAccount().json);
  const google = toGoogleWallet(pass, { issuerId: '3388000000012345678' });
  const link = await createSaveUrl(credentials, {
    classes: [{ type: google.type, class: google.class }],
    objects: [{ type: google.type, object: google.object }],
  });

  expect(google.type).toBe('generic');
  expect(google.losses.map((loss) => loss.path)).toContain('/foregroundColor');
  expect(link).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
  const claims = JSON.parse(Buffer.from(link.split('/').pop()!.split('.')[1]!, 'base64url').toString('utf8'));
  expect(claims.payload.genericObjects[0].id).toBe(google.object['id']);
});
