// `passmint serve`'s Google options (and createServer's check of the issuer id): both or neither of credentials and
// issuer id, a checked key file, URLs and a root keys file, each mistake a
// usage error naming its option.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseCommandLine } from '../../src/cli/args.js';
import { GOOGLE_SERVE_OPTIONS, readGoogleServeOptions } from '../../src/cli/serve-google.js';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { createServer } from '../../src/server/create-server.js';
import type { CliIo } from '../../src/cli/io.js';
import { createCallbackSigner } from '../google/stand-in.js';
import { testServiceAccount } from '../google/keys.js';

const dir = mkdtempSync(join(tmpdir(), 'passmint-google-options-'));
const io: CliIo = { stdout: () => undefined, stderr: () => undefined, cwd: dir, env: {} };
writeFileSync(join(dir, 'key.json'), testServiceAccount().json);
writeFileSync(join(dir, 'oauth-client.json'), JSON.stringify({ web: { client_id: 'x' } }));
writeFileSync(join(dir, 'keys.json'), JSON.stringify({ keys: createCallbackSigner().rootKeys() }));
writeFileSync(join(dir, 'no-keys.json'), JSON.stringify({ keys: [] }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (...args: string[]) => readGoogleServeOptions(parseCommandLine(args, GOOGLE_SERVE_OPTIONS), io);

describe('passmint serve --google-*', () => {
  test('none given: no Google; all given: the options createServer takes', () => {
    expect(read()).toBeUndefined();
    const options = read(
      '--google-credentials',
      'key.json',
      '--google-issuer-id',
      '3388000000012345678',
      '--google-api-url',
      'http://127.0.0.1:9/walletobjects/v1/',
      '--google-token-url',
      'http://127.0.0.1:9/token',
      '--google-callback-keys',
      'keys.json',
    )!;
    expect(options.issuerId).toBe('3388000000012345678');
    expect(options.credentials.clientEmail).toBe(testServiceAccount().clientEmail);
    expect(options.apiUrl).toBe('http://127.0.0.1:9/walletobjects/v1/');
    expect(options.tokenUrl).toBe('http://127.0.0.1:9/token');
    expect(options.callbackKeys).toHaveLength(1);
    expect(options.callbackKeys![0]!.protocolVersion).toBe('ECv2SigningOnly');
  });

  test('each mistake is a usage error naming its option', () => {
    expect(() => read('--google-credentials', 'key.json')).toThrow('Google Wallet needs both --google-credentials and --google-issuer-id');
    expect(() => read('--google-api-url', 'http://x/')).toThrow('need --google-credentials and --google-issuer-id');
    expect(() => read('--google-credentials', 'key.json', '--google-issuer-id', 'issuer')).toThrow("--google-issuer-id is the issuer's number");
    expect(() => read('--google-credentials', 'oauth-client.json', '--google-issuer-id', '1')).toThrow('--google-credentials oauth-client.json:');
    expect(() => read('--google-credentials', 'missing.json', '--google-issuer-id', '1')).toThrow('Cannot read the Google service-account key missing.json');
    expect(() => read('--google-credentials', 'key.json', '--google-issuer-id', '1', '--google-token-url', 'token')).toThrow(
      '--google-token-url is an http(s) URL',
    );
    expect(() => read('--google-credentials', 'key.json', '--google-issuer-id', '1', '--google-callback-keys', 'key.json')).toThrow(
      '--google-callback-keys key.json:',
    );
    expect(() => read('--google-credentials', 'key.json', '--google-issuer-id', '1', '--google-callback-keys', 'no-keys.json')).toThrow('no key with');
  });
});

describe('createServer({ google })', () => {
  test("an issuer id that is not Google's digits is refused at start", async () => {
    await expect(createServer({ google: { credentials: readGoogleCredentials(testServiceAccount().json), issuerId: 'my-issuer' } })).rejects.toMatchObject({
      name: 'GoogleWalletError',
      code: 'invalid-issuer-id',
    });
  });
});
