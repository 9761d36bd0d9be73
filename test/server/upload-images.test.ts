// PNG dimension bombs at the service (issue 28), on both engines over real
// HTTP: a template file declaring 65535×65535 or 2^31×2^31 pixels is refused
// at upload with 422 image-too-large naming the file and the limit, and
// nothing is stored; a bomb stored before the check existed makes the pass's
// download and Apple's pass fetch a 422 problem, never a 500 (and nothing in
// the error log).
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { putTemplateFile } from '../../src/server/db/templates.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

/** A hand-made PNG: a real signature and an IHDR declaring `width`×`height` (8-bit RGBA), one small IDAT, IEND. */
function declaredPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(4096))), chunk('IEND', new Uint8Array())]));
}

const template = {
  name: 'Ticket',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: { generic: { primaryFields: [{ key: 'seat', value: '${seat}' }] } },
  placeholder: ['seat'],
};

for (const engine of ENGINES) {
  describe(`PNG dimension bombs on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    const logged: unknown[] = [];

    beforeAll(async () => {
      const pki = await makePki();
      const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
      database = await engine.open();
      service = await startService(database, { signer, onError: (error) => logged.push(error) });
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('an upload declaring 65535×65535 or 2^31×2^31 pixels is 422 image-too-large naming the file and the limit; nothing stored', async () => {
      const id = (await service.call('POST', '/v1/templates', template)).body.id as number;
      expect((await service.call('PUT', `/v1/templates/${id}/files/icon.png`, png(29, 29))).status).toBe(201);
      const before = (await service.call('GET', `/v1/templates/${id}`)).body as { version: number };
      for (const [path, bytes, declared] of [
        ['icon.png', declaredPng(65535, 65535), '65535×65535'],
        ['logo.png', declaredPng(2 ** 31, 2 ** 31), '2147483648×2147483648'],
        ['de.lproj/strip@3x.png', declaredPng(4097, 10), '4097×10'],
      ] as const) {
        const answer = await service.call('PUT', `/v1/templates/${id}/files/${path}`, bytes);
        expect(answer.status).toBe(422);
        expect(answer.body.code).toBe('image-too-large');
        expect(answer.body.detail).toBe(
          `"${path}" declares ${declared} pixels; images are limited to 4096 pixels a side (the largest Wallet draws is 1344). Nothing was stored.`,
        );
        expect(answer.body.issues).toEqual([expect.objectContaining({ severity: 'error', code: 'image-too-large', path: `/${path}` })]);
      }
      // 2048×2561 RGBA: within a side, past the decoded bound (20 MiB).
      const wide = await service.call('PUT', `/v1/templates/${id}/files/background@3x.png`, declaredPng(2048, 2561));
      expect([wide.status, wide.body.code]).toEqual([422, 'image-too-large']);
      expect(wide.body.detail).toContain('images are limited to 20 MiB decoded');
      const files = (await service.call('GET', `/v1/templates/${id}/files`)).body as { items: { path: string; size: number }[] };
      expect(files.items.map((file) => file.path)).toEqual(['icon.png']);
      expect(((await service.call('GET', `/v1/templates/${id}`)).body as { version: number }).version).toBe(before.version);
      expect(logged).toEqual([]);
    });

    test("a bomb stored before the check: the download and Apple's pass fetch are 422 problems, not 500", async () => {
      const id = (await service.call('POST', '/v1/templates', template)).body.id as number;
      // Written past the route, as an older passmint stored it.
      expect(await putTemplateFile(database.db, id, 'icon.png', declaredPng(65535, 65535))).toBe('stored');
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { values: { seat: '1A' }, serialNumber: 'B-1' })).status).toBe(201);
      const download = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/B-1/pkpass`);
      expect(download.status).toBe(422);
      expect(download.body.code).toBe('cannot-pack');
      expect(download.body.issues).toContainEqual(expect.objectContaining({ code: 'image-too-large', path: '/icon.png' }));
      const { authenticationToken } = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/B-1/passjson`)).body as { authenticationToken: string };
      const fetched = await fetch(`${service.url}/wallet/v1/passes/${PASS_TYPE_IDENTIFIER}/B-1`, {
        headers: { authorization: `ApplePass ${authenticationToken}` },
      });
      expect(fetched.status).toBe(422);
      expect(((await fetched.json()) as { code: string }).code).toBe('cannot-pack');
      expect(logged).toEqual([]);
    });
  });
}
