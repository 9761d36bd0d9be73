// passmint import FILE --template ID [--upsert] against a running service
// (PGlite in memory): uploads, follows the job, prints the failed rows with
// their problems; exit 0 when none failed, 1 when some did or the service
// refused, 2 for usage.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { ENGINES, type TestDatabase } from '../server/databases.js';
import { startService, type Service } from '../server/harness.js';
import { captureIo, tempDir } from './io.js';

describe('passmint import', () => {
  let database: TestDatabase;
  let service: Service;
  let folder: { dir: string; remove: () => void };
  let templateId: number;

  beforeAll(async () => {
    database = await ENGINES[0]!.open();
    service = await startService(database);
    folder = tempDir('import');
    templateId = (
      await service.call('POST', '/v1/templates', {
        name: 'Member',
        formatVersion: 1,
        passType: 'pass.com.example.member',
        description: { generic: { primaryFields: [{ key: 'name', value: '${name}' }] } },
        placeholder: ['name'],
      })
    ).body.id;
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
    folder?.remove();
  });

  const cli = async (args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> => {
    const capture = captureIo(folder.dir, { PASSMINT_URL: service.url, PASSMINT_API_KEY: service.key, PASSMINT_IMPORT_POLL_MS: '20', ...env });
    const code = await run(['import', ...args], capture.io);
    return { code, stdout: capture.stdout(), stderr: capture.stderr() };
  };

  test('every row imported: exit 0 and the counts', async () => {
    writeFileSync(join(folder.dir, 'members.csv'), 'serialNumber,name\r\nM-1,"Lovelace, Ada"\r\nM-2,Grace\r\n');
    const result = await cli(['members.csv', '--template', String(templateId)]);
    expect(result).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^Imported 2 rows: 2 created, 0 updated, 0 unchanged, 0 failed \(job [0-9a-f-]{36}\)\.\n$/),
      stderr: '',
    });
    expect((await service.call('GET', '/v1/passes/pass.com.example.member/M-1/values')).body).toEqual({ name: 'Lovelace, Ada' });
  });

  test('--upsert with JSON lines; failed rows printed with their problems, exit 1', async () => {
    writeFileSync(
      join(folder.dir, 'changes.ndjson'),
      '{"serialNumber":"M-1","name":"Ada King"}\n{"serialNumber":"M-2","name":"Grace"}\n{"serialNumber":"M-3"}\n',
    );
    const result = await cli(['changes.ndjson', '--template', String(templateId), '--upsert']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^row 3 \(M-3\): invalid-values: .+\n {2}.+\nImported 3 rows: 0 created, 1 updated, 1 unchanged, 1 failed \(job /s);
    expect((await service.call('GET', '/v1/passes/pass.com.example.member/M-1')).body.version).toBe(2);
  });

  test('a file the service refuses (unknown column): exit 1 with the problem; usage mistakes: exit 2', async () => {
    writeFileSync(join(folder.dir, 'bad.csv'), 'nam\nA\n');
    const refused = await cli(['bad.csv', '--template', String(templateId)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the file \(422 invalid-import: Unknown column "nam"/);
    expect((await cli(['bad.csv'])).code).toBe(2);
    expect((await cli(['--template', '1'])).code).toBe(2);
    expect((await cli(['missing.csv', '--template', '1'])).stderr).toMatch(/Cannot read the file missing\.csv: no such file/);
    expect((await cli(['bad.csv', '--template', '1'], { PASSMINT_API_KEY: '' })).code).toBe(2);
    expect((await cli(['bad.csv', '--template', '1', '--format', 'xml'])).code).toBe(2);
    const unreachable = await cli(['bad.csv', '--template', '1'], { PASSMINT_URL: 'http://127.0.0.1:9' });
    expect([unreachable.code, unreachable.stderr]).toEqual([1, expect.stringMatching(/cannot reach http:\/\/127\.0\.0\.1:9/)]);
  });
});
