// `passmint verify --at`: a package judged as of a moment — an old pass, signed
// while its certificate was valid, is valid as of its signing time.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { packPass } from '../../src/pkpass/pack.js';
import { createPassSigner } from '../../src/pkpass/signer.js';
import { genericPass } from '../pass/passes.js';
import { imageSet } from '../pkpass/helpers.js';
import { makePki, PASS_TYPE_IDENTIFIER, TEAM_IDENTIFIER } from '../pkpass/pki.js';
import { captureIo, tempDir } from './io.js';

const DAY = 86_400_000;
let dir: string;
let remove: () => void;
// Whole seconds: the signing time is written in seconds.
const signedAt = new Date(Math.floor((Date.now() - 60 * DAY) / 1000) * 1000);

beforeAll(async () => {
  ({ dir, remove } = tempDir('verify-at'));
  // A certificate that expired 30 days ago; the pass was signed 60 days ago, while it was valid.
  const pki = await makePki({ notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - 30 * DAY) });
  const signer = await createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem, at: signedAt });
  const pass = { ...genericPass, passTypeIdentifier: PASS_TYPE_IDENTIFIER, teamIdentifier: TEAM_IDENTIFIER };
  writeFileSync(join(dir, 'old.pkpass'), await packPass(pass, imageSet(), signer, { signingTime: signedAt }));
  writeFileSync(join(dir, 'root.pem'), pki.rootPem);
});
afterAll(() => remove());

async function cli(...args: string[]) {
  const captured = captureIo(dir);
  const code = await run(args, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe('passmint verify --at', () => {
  test('now: the expired certificate makes the old pass invalid', async () => {
    const result = await cli('verify', 'old.pkpass', '--root', 'root.pem');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error certificate-expired');
  });

  test('--at signing-time and --at a date before the expiry: valid, and the summary says as of when', async () => {
    const atSigning = await cli('verify', 'old.pkpass', '--root', 'root.pem', '--at', 'signing-time');
    expect(atSigning.code).toBe(0);
    expect(atSigning.stdout).toMatch(/^old\.pkpass: valid \(.*\) as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    const day = new Date(signedAt.getTime() + DAY).toISOString().slice(0, 10);
    const atDate = await cli('verify', 'old.pkpass', '--at', day, '--json');
    expect(atDate.code).toBe(0);
    const report = JSON.parse(atDate.stdout) as { ok: boolean; at: string; issues: unknown[] };
    expect(report).toMatchObject({ ok: true, at: `${day}T00:00:00.000Z` });
  });

  test('a date after the expiry is judged as of then: invalid', async () => {
    const after = new Date(Date.now() - 10 * DAY).toISOString();
    const result = await cli('verify', 'old.pkpass', '--at', after);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('certificate-expired');
  });

  test('a date that is not ISO 8601: usage error (exit 2), nothing checked', async () => {
    const result = await cli('verify', 'old.pkpass', '--at', 'last tuesday');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--at takes an ISO 8601 date');
  });
});
