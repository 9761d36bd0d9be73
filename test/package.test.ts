import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

// The published entry points, as a consumer's Node resolves them (package
// self-reference through "exports"), from the built dist/. `npm test` builds first.
const root = fileURLToPath(new URL('..', import.meta.url));
const built = existsSync(`${root}dist/index.js`);
if (!built && process.env['CI']) throw new Error('dist/ is missing: npm test runs `npm run build` before the tests');

function runNode(source: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: root, encoding: 'utf8' }).trim();
}

describe.skipIf(!built)(`the built package${built ? '' : ' (skipped: run `npm run build` first)'}`, () => {
  test('each entry exposes the names of the design', () => {
    const out = runNode(`
      const core = await import('passmint');
      const webhooks = await import('passmint/webhooks');
      const http = await import('passmint/http');
      console.log(JSON.stringify([
        ['scanPlaceholders', 'validateTemplate', 'compileTemplate', 'renderTemplate', 'buildPass', 'validatePass', 'definePassTemplate'].filter((n) => typeof core[n] !== 'function'),
        ['createEvent', 'generateWebhookSecret', 'signPayload', 'verifySignature', 'receiveWebhook', 'respondToVerification', 'verifyEndpoint', 'createDelivery', 'deliver', 'nextRetryDelay', 'dispatchEvent'].filter((n) => typeof webhooks[n] !== 'function'),
        ['createPassHandler', 'bearerAuth', 'createPassClient', 'ApiError'].filter((n) => typeof http[n] !== 'function'),
      ]));
    `);
    expect(JSON.parse(out)).toEqual([[], [], []]);
  });

  test('a pass built from dist validates, and signing uses the node:crypto path with the same bytes', () => {
    const out = runNode(`
      import { createHmac } from 'node:crypto';
      const { buildPass, validatePass } = await import('passmint');
      const { signPayload } = await import('passmint/webhooks');
      const template = { id: 1, name: 'T', formatVersion: 1, passType: 'pass.com.example.t',
        description: { generic: { primaryFields: [{ key: 'k', value: '\${v}' }] } }, placeholder: ['v'] };
      const pass = buildPass(template, { v: 'x' }, { teamIdentifier: 'A93A5CM278', organizationName: 'O' });
      const signature = await signPayload('{"a":1}', 'secret');
      console.log(JSON.stringify([validatePass(pass).ok, signature === 'sha1=' + createHmac('sha1', 'secret').update('{"a":1}').digest('hex')]));
    `);
    expect(JSON.parse(out)).toEqual([true, true]);
  });

  test('the JSON Schemas are exported', () => {
    const out = runNode(`
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      console.log(JSON.stringify(['pass', 'pass-template', 'event'].map((name) => require.resolve('passmint/schemas/' + name + '.json').endsWith(name + '.schema.json'))));
    `);
    expect(JSON.parse(out)).toEqual([true, true, true]);
  });
});
