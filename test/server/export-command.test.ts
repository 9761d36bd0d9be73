// passmint export against a running service: the CSV on stdout (filters
// applied), exit 1 with the problem when the service refuses, 2 for usage.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const TEMPLATE = {
  name: 'Command',
  formatVersion: 1,
  passType: 'pass.com.example.command',
  description: { generic: { primaryFields: [{ key: 'n', value: '${name}' }] } },
  placeholder: ['name', 'tier'],
};

async function passmint(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd: process.cwd(), env });
  return { code, stdout, stderr };
}

for (const engine of ENGINES) {
  describe(`passmint export on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let templateId: number;

    beforeAll(async () => {
      database = await engine.open();
      service = await startService(database);
      templateId = (await service.call('POST', '/v1/templates', TEMPLATE)).body.id;
      for (const [serialNumber, name, tier] of [
        ['C-1', 'Ada', 'gold'],
        ['C-2', 'Grace, H.', 'gold'],
        ['C-3', 'Alan', 'silver'],
      ]) {
        expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { serialNumber, values: { name, tier } })).status).toBe(201);
      }
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('writes the CSV to stdout, with filters; the key and URL from the environment', async () => {
      const all = await passmint(['export', '--template', String(templateId), '--url', service.url, '--key', service.key]);
      expect([all.code, all.stderr]).toEqual([0, '']);
      const lines = all.stdout.split('\r\n');
      expect(lines[0]).toBe('serialNumber,name,tier,version,updated,links.self,links.passjson,links.pkpass');
      expect(lines.slice(1, 4).map((line) => line.split(',')[0])).toEqual(['C-1', 'C-2', 'C-3']);
      expect(lines[2]).toContain('"Grace, H."');
      const gold = await passmint(['export', '--template', String(templateId), '--values.tier=gold', '--values.name', 'Ada'], {
        PASSMINT_URL: service.url,
        PASSMINT_API_KEY: service.key,
      });
      expect(gold.code).toBe(0);
      expect(
        gold.stdout
          .split('\r\n')
          .slice(1, -1)
          .map((line) => line.split(',')[0]),
      ).toEqual(['C-1']);
    });

    test('exit 1 with the problem when the service refuses; 2 for usage', async () => {
      const refused = await passmint(['export', '--template', String(templateId), '--values.colour=red', '--url', service.url, '--key', service.key]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('invalid-query');
      const badKey = await passmint(['export', '--template', String(templateId), '--url', service.url, '--key', 'pm_wrong']);
      expect([badKey.code, badKey.stdout]).toEqual([1, '']);
      expect(badKey.stderr).toContain('401');
      expect((await passmint(['export', '--url', service.url, '--key', service.key])).code).toBe(2);
      expect((await passmint(['export', '--template', '1'])).code).toBe(2);
      expect((await passmint(['export', '--template', '1', '--key', 'k', '--colour', 'red'])).code).toBe(2);
      const unreachable = await passmint(['export', '--template', '1', '--key', 'k', '--url', 'http://127.0.0.1:9']);
      expect(unreachable.code).toBe(1);
    });
  });
}
