import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
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
      const pkpass = await import('passmint/pkpass');
      const wallet = await import('passmint/wallet');
      const apns = await import('passmint/apns');
      const server = await import('passmint/server');
      const google = await import('passmint/google');
      console.log(JSON.stringify([
        ['scanPlaceholders', 'validateTemplate', 'compileTemplate', 'renderTemplate', 'buildPass', 'validatePass', 'definePassTemplate'].filter((n) => typeof core[n] !== 'function'),
        ['createEvent', 'generateWebhookSecret', 'signPayload', 'verifySignature', 'receiveWebhook', 'respondToVerification', 'verifyEndpoint', 'createDelivery', 'deliver', 'nextRetryDelay', 'dispatchEvent'].filter((n) => typeof webhooks[n] !== 'function'),
        ['createPassHandler', 'bearerAuth', 'createPassClient', 'ApiError'].filter((n) => typeof http[n] !== 'function'),
        ['createPassSigner', 'prepareFiles', 'packPass', 'packPasses', 'readPass', 'verifyPass', 'encodePassStrings', 'decodePassStrings'].filter((n) => typeof pkpass[n] !== 'function'),
        ['createWalletHandler', 'createMemoryWalletStore'].filter((n) => typeof wallet[n] !== 'function'),
        ['createApnsClient', 'notifyPassUpdated'].filter((n) => typeof apns[n] !== 'function'),
        ['createServer'].filter((n) => typeof server[n] !== 'function'),
        ['toGoogleWallet', 'readGoogleCredentials', 'createSaveUrl', 'createGoogleWalletClient', 'verifyGoogleCallback', 'fetchGoogleRootKeys', 'GoogleWalletError'].filter((n) => typeof google[n] !== 'function'),
      ]));
    `);
    expect(JSON.parse(out)).toEqual([[], [], [], [], [], [], [], []]);
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

// Issue 11: what a user gets from `npm pack` (and from a git install, which
// runs the same `prepare` build in a fresh clone). Slow on purpose (seconds):
// it builds a copy of the sources, packs it, installs the tarball into an
// empty project and uses it from there, as a user would.
describe('the package a user installs', () => {
  test('npm pack in a clean copy builds dist/ (prepare) and gives a tarball that installs and runs', () => {
    const work = mkdtempSync(join(tmpdir(), 'passmint-pack-'));
    try {
      // A copy without dist/ or build output, as a fresh clone has it; node_modules is shared, not reinstalled.
      const copy = join(work, 'passmint');
      const skip = new Set(['node_modules', 'dist', '.git', 'test-results', 'playground-dist', '.scratch']);
      cpSync(root, copy, { recursive: true, filter: (source) => !skip.has(relative(root, source).split(sep)[0] ?? '') });
      symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
      // The build's own output (publint's verdict) shares stdout with the JSON: read from the JSON's first line.
      const output = npm(copy, 'pack', '--json', '--pack-destination', work);
      const packed = JSON.parse(output.slice(output.search(/^\[/m))) as [{ filename: string; files: { path: string }[] }];
      const files = packed[0].files.map((file) => file.path);

      // The right files: the build, the schemas, the license, the docs and examples; no maps, no sources, no tests.
      expect(files).toEqual(
        expect.arrayContaining([
          'LICENSE',
          'README.md',
          'package.json',
          'dist/index.js',
          'dist/index.d.ts',
          'dist/pkpass/index.js',
          'dist/cli/main.js',
          'dist/schema/validators.js',
          'src/schema/pass.schema.json',
          // The docs the README and `--help` point to, and the examples the README starts from.
          'docs/service.md',
          'docs/certificates.md',
          'examples/membership.json',
        ]),
      );
      expect(files.filter((path) => path.endsWith('.map') || path.startsWith('test/') || (path.startsWith('src/') && !path.endsWith('.schema.json')))).toEqual(
        [],
      );
      const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        exports: Record<string, unknown>;
        imports: Record<string, unknown>;
        bin: Record<string, string>;
      };
      const targets = [...Object.values(manifest.exports), ...Object.values(manifest.imports), ...Object.values(manifest.bin)]
        .flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target as Record<string, string>)))
        .filter((target) => !target.includes('*'))
        .map((target) => target.replace(/^\.\//, ''));
      expect(targets.filter((target) => !files.includes(target))).toEqual([]);

      // Installed into an empty project: both entry points import, and the command runs.
      const project = join(work, 'project');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
      npm(project, 'install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed[0].filename));
      const imported = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `
        const core = await import('passmint');
        const pkpass = await import('passmint/pkpass');
        console.log(JSON.stringify([typeof core.buildPass, typeof pkpass.createPassSigner]));
      `,
        ],
        { cwd: project, encoding: 'utf8' },
      );
      expect(JSON.parse(imported)).toEqual(['function', 'function']);
      const help = execFileSync('npx', ['passmint', '--help'], { cwd: project, encoding: 'utf8' });
      expect(help).toContain('Usage: passmint <command>');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);
});

function npm(cwd: string, ...args: string[]): string {
  try {
    return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    // tsc and publint report on stdout: show it with the failure.
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}
