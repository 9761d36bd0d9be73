// `passmint serve`'s Google Wallet options: the service account, the issuer
// id, and where the API, the token endpoint and the callback keys are (a
// local stand-in instead of Google).
import { GoogleWalletError, parseRootKeys, readGoogleCredentials, type GoogleRootKey } from '../google/index.js';
import type { GoogleServiceOptions } from '../server/index.js';
import { stringOption, type OptionTable, type ParsedCommandLine } from './args.js';
import { readTextInput } from './files.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage-error.js';

/** The options `passmint serve` adds for Google Wallet. */
export const GOOGLE_SERVE_OPTIONS: OptionTable = {
  'google-credentials': { type: 'string' },
  'google-issuer-id': { type: 'string' },
  'google-api-url': { type: 'string' },
  'google-token-url': { type: 'string' },
  'google-callback-keys': { type: 'string' },
};

/** Their lines in `passmint serve --help`. */
export const GOOGLE_SERVE_HELP = `  --google-credentials FILE  Google Wallet: the issuer's service-account key (JSON), with --google-issuer-id
  --google-issuer-id ID   the issuer id from the Google Pay & Wallet Console
  --google-api-url URL    the Wallet REST API (default Google's; a local stand-in for tests)
  --google-token-url URL  the OAuth token endpoint (default Google's)
  --google-callback-keys FILE  root keys that sign save/delete callbacks (a saved copy of Google's keys document);
                          default Google's, fetched and cached`;

const isUrl = (text: string): boolean => /^https?:\/\/[^/?#\s]+(?:\/\S*)?$/.test(text);

/**
 * Reads the Google options; `undefined` without `--google-credentials` and
 * `--google-issuer-id` (both or neither). A wrong key file, issuer id, URL or
 * keys file is a {@link UsageError} naming the option.
 */
export function readGoogleServeOptions(parsed: ParsedCommandLine, io: CliIo): GoogleServiceOptions | undefined {
  const file = stringOption(parsed, 'google-credentials');
  const issuerId = stringOption(parsed, 'google-issuer-id');
  const apiUrl = stringOption(parsed, 'google-api-url');
  const tokenUrl = stringOption(parsed, 'google-token-url');
  const keysFile = stringOption(parsed, 'google-callback-keys');
  if (file === undefined && issuerId === undefined) {
    if (apiUrl !== undefined || tokenUrl !== undefined || keysFile !== undefined) {
      throw new UsageError('--google-api-url, --google-token-url and --google-callback-keys need --google-credentials and --google-issuer-id');
    }
    return undefined;
  }
  if (file === undefined || issuerId === undefined) throw new UsageError('Google Wallet needs both --google-credentials and --google-issuer-id');
  if (!/^\d{1,30}$/.test(issuerId)) throw new UsageError(`--google-issuer-id is the issuer's number from the Google Pay & Wallet Console, not "${issuerId}"`);
  for (const [name, url] of [
    ['--google-api-url', apiUrl],
    ['--google-token-url', tokenUrl],
  ] as const) {
    if (url !== undefined && !isUrl(url)) throw new UsageError(`${name} is an http(s) URL, not "${url}"`);
  }
  let credentials: GoogleServiceOptions['credentials'];
  try {
    credentials = readGoogleCredentials(readTextInput(io, file, 'the Google service-account key'));
  } catch (error) {
    if (error instanceof GoogleWalletError) throw new UsageError(`--google-credentials ${file}: ${error.message}`);
    throw error;
  }
  return {
    credentials,
    issuerId,
    ...(apiUrl === undefined ? {} : { apiUrl }),
    ...(tokenUrl === undefined ? {} : { tokenUrl }),
    ...(keysFile === undefined ? {} : { callbackKeys: readRootKeys(readTextInput(io, keysFile, 'the Google callback keys'), keysFile) }),
  };
}

/** A saved copy of Google's root keys document, `{ "keys": [{ keyValue, protocolVersion, keyExpiration }] }`. */
function readRootKeys(text: string, file: string): GoogleRootKey[] {
  let keys: GoogleRootKey[];
  try {
    keys = parseRootKeys(text);
  } catch (error) {
    if (error instanceof GoogleWalletError) throw new UsageError(`--google-callback-keys ${file}: ${error.message}`);
    throw error;
  }
  if (keys.length === 0) throw new UsageError(`--google-callback-keys ${file}: no key with a "keyValue" and a "protocolVersion"`);
  return keys;
}
