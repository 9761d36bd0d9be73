import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { png } from '../pkpass/helpers.js';
import { captureIo, tempDir } from './io.js';

// `passmint cert --dev`: a development identity, then `pack` and `verify` accept what it makes.
let dir: string;
let remove: () => void;
beforeAll(() => ({ dir, remove } = tempDir('cert-dev')));
afterAll(() => remove());

async function passmint(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = captureIo(dir);
  const code = await run(args, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe('passmint cert --dev', () => {
  let made: { code: number; stdout: string; stderr: string };
  beforeAll(async () => {
    made = await passmint('cert', '--dev', 'pass.com.example.event', '-o', 'keys');
  }, 60_000);

  test('writes four PEM files, the key private to the user, and says it is not accepted by iPhones', () => {
    expect(made.code).toBe(0);
    expect(made.stderr).toBe('');
    const lines = made.stdout.split('\n');
    expect(lines[0]).toBe('Wrote a development identity for pass.com.example.event, team DEVTEAM123: NOT ACCEPTED BY IPHONES.');
    expect(made.stdout).toContain('passmint pack <folder> --cert keys/certificate.pem --key keys/key.pem --wwdr keys/wwdr.pem');
    expect(made.stdout).toContain('passmint verify <folder>.pkpass --root keys/root.pem');
    expect(statSync(join(dir, 'keys/key.pem')).mode & 0o777).toBe(0o600);
    const certificate = new X509Certificate(readFileSync(join(dir, 'keys/certificate.pem')));
    expect(certificate.subject).toContain(
      'UID=pass.com.example.event\nCN=Pass Type ID: pass.com.example.event\nOU=DEVTEAM123\nO=passmint development identity - not accepted by iPhones',
    );
    expect(certificate.verify(new X509Certificate(readFileSync(join(dir, 'keys/wwdr.pem'))).publicKey)).toBe(true);
    const out = execFileSync('openssl', ['verify', '-CAfile', 'keys/root.pem', '-untrusted', 'keys/wwdr.pem', '-purpose', 'any', 'keys/certificate.pem'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('keys/certificate.pem: OK');
  });

  test('pack signs a folder with it, and verify --root accepts the package with a development-certificate warning', async () => {
    mkdirSync(join(dir, 'ticket'));
    writeFileSync(
      join(dir, 'ticket/pass.json'),
      JSON.stringify({
        formatVersion: 1,
        passTypeIdentifier: 'pass.com.example.event',
        teamIdentifier: 'DEVTEAM123',
        serialNumber: 'ticket-1',
        organizationName: 'Example Events',
        description: 'Event ticket',
        generic: { primaryFields: [{ key: 'event', value: 'Concert' }] },
      }),
    );
    writeFileSync(join(dir, 'ticket/icon.png'), png(29, 29));
    const packed = await passmint('pack', 'ticket', '--cert', 'keys/certificate.pem', '--key', 'keys/key.pem', '--wwdr', 'keys/wwdr.pem');
    expect([packed.code, packed.stderr]).toEqual([0, '']);
    const verified = await passmint('verify', 'ticket.pkpass', '--root', 'keys/root.pem');
    expect(verified.code).toBe(0);
    expect(verified.stdout.split('\n')[0]).toBe('ticket.pkpass: valid (0 errors, 1 warning)');
    expect(verified.stdout).toMatch(/warning development-certificate Signed with a passmint development identity .*not Apple's/);
  });

  test('--team sets the OU; files are not overwritten without --force', async () => {
    const again = await passmint('cert', '--dev', 'pass.com.example.event', '-o', 'keys');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^passmint cert: keys\/certificate\.pem already exists/);
    const team = await passmint('cert', '--dev', 'pass.com.example.event', '--team', 'ABCDE12345', '-o', 'keys', '--force');
    expect(team.code).toBe(0);
    expect(new X509Certificate(readFileSync(join(dir, 'keys/certificate.pem'))).subject).toContain('OU=ABCDE12345');
  }, 60_000);

  test('usage errors: no pass type, a pass type without pass., a bad team, --team without --dev', async () => {
    const usage = async (...args: string[]): Promise<string> => {
      const result = await passmint(...args);
      expect([result.code, result.stdout]).toEqual([2, '']);
      return result.stderr;
    };
    expect(await usage('cert', '--dev')).toMatch(/^passmint cert: name the pass type identifier/);
    expect(await usage('cert', '--dev', 'com.example.event')).toMatch(/starts with "pass\."/);
    expect(await usage('cert', '--dev', 'pass.com.example.event', '--team', 'dev')).toMatch(/ten upper-case letters and digits/);
    expect(await usage('cert', 'Certificates.p12', '--team', 'ABCDE12345')).toMatch(/--team goes with --dev/);
    expect(await usage('cert', '--dev', 'pass.com.example.event', '--passphrase-env', 'X')).toMatch(/takes none/);
  });
});
