// A large template bundle is prepared (hashed, checked, compressed) without
// holding up the service: a request that arrives while it is being prepared is
// answered before the preparation ends.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPassSigner } from '../../src/pkpass/signer.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { putTemplateFile } from '../../src/server/db/templates.js';
import { png } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const template = {
  name: 'Member card',
  formatVersion: 1,
  passType: PASS_TYPE_IDENTIFIER,
  description: { backgroundColor: 'rgb(20, 40, 60)', generic: { primaryFields: [{ key: 'name', label: 'Member', value: 'Ada' }] } },
  placeholder: [],
};

/** The database, telling `onFilesRead` each time a template's files have been read (preparation starts right after). */
function watched(db: SqlDatabase, onFilesRead: () => void): SqlDatabase {
  return new Proxy(db, {
    get(target, name, receiver) {
      if (name !== 'query') return Reflect.get(target, name, receiver) as unknown;
      return async (text: string, params?: readonly unknown[]) => {
        const rows = await target.query(text, params);
        if (/^select path, bytes from passmint_template_files/.test(text)) onFilesRead();
        return rows;
      };
    },
  });
}

describe('preparing a large bundle', () => {
  let database: TestDatabase;
  let service: Service;
  let onFilesRead = (): void => undefined;

  beforeAll(async () => {
    const pki = await makePki();
    const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
    database = await ENGINES[0]!.open();
    service = await startService({ ...database, db: watched(database.db, () => onFilesRead()) }, { signer });
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test('a request made once the files are read is answered before the download that prepares them', async () => {
    const id = (await service.call('POST', '/v1/templates', template)).body.id as number;
    expect((await service.call('PUT', `/v1/templates/${id}/files/icon.png`, png(29, 29))).status).toBe(201);
    // 12 MiB that deflate does not shrink (hundreds of milliseconds of compression in all), stored directly: the upload is not what is measured.
    for (let index = 0; index < 12; index++)
      expect(await putTemplateFile(database.db, id, `notes-${index}.txt`, new Uint8Array(randomBytes(1024 * 1024)))).toBe('stored');
    // The inserts may take longer than the server keeps an idle connection (5 s): a pooled one it is closing
    // would reset the next request, so one that may fail goes first.
    await fetch(`${service.url}/healthz`).then(
      (answer) => answer.arrayBuffer(),
      () => undefined,
    );
    const pass = await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: 'BIG', values: {} });
    expect(pass.status).toBe(201);

    const finished: string[] = [];
    let other: Promise<void> | undefined;
    onFilesRead = () => {
      onFilesRead = () => undefined;
      other = service.call('GET', `/v1/templates/${id}`).then((answer) => {
        expect(answer.status).toBe(200);
        finished.push('other request');
      });
    };
    const download = await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/BIG/pkpass`);
    finished.push('download');
    await other;
    expect(download.status).toBe(200);
    expect(download.bytes.length).toBeGreaterThan(12 * 1024 * 1024);
    expect(finished).toEqual(['other request', 'download']);
  }, 120_000);
});
