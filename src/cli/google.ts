import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  createGoogleWalletClient,
  createSaveUrl,
  GoogleWalletError,
  readGoogleCredentials,
  toGoogleWallet,
  type GoogleCredentials,
  type GoogleMapOptions,
  type GoogleWalletPass,
} from '../google/index.js';
import type { Pass } from '../index.js';
import { decodePassStrings } from '../pkpass/index.js';
import { flag, parseCommandLine, stringOption, stringOptions } from './args.js';
import type { Command } from './command.js';
import { resolvePath } from './files.js';
import { EXIT_FAILED, EXIT_OK, type CliIo, type ExitCode } from './io.js';
import { readJsonSource } from './json-source.js';
import { readPassFolder } from './pass-folder.js';
import { readTextInput } from './files.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: passmint google map <pass.json | pass folder> [options]
       passmint google link <pass.json | pass folder> --credentials key.json --issuer-id ID [--insert] [options]

The same pass, in Google Wallet. \`map\` prints the Google class and object a
pass.json becomes and the loss report: everything Apple Wallet shows that
Google Wallet cannot, each with its JSON Pointer into the pass. \`link\` prints
a signed "Add to Google Wallet" link holding the class and object; with
--insert it first inserts (or updates) the class and object through Google's
REST API and prints a short link that names only the object, for passes too
large for a link (Google's limit: 1,800 characters).

A pass folder (pass.json, images, xx.lproj/pass.strings) gives the mapping its
translations and, with --image-base, its images; for a pass.json file the
folder it sits in is used.

Options:
  --issuer-id ID       the issuer id from the Google Pay & Wallet Console
                       (or PASSMINT_GOOGLE_ISSUER_ID; map shows ids with 0 without one)
  --credentials FILE   the service-account key file (JSON) that signs the link
                       (or PASSMINT_GOOGLE_CREDENTIALS)
  --image-base URL     where the pass's images are hosted: logo.png is then
                       <URL>logo.png (Google fetches images from public URLs)
  --class-suffix TEXT  the class id suffix (default: from passTypeIdentifier)
  --language TAG       the language of the pass's own texts (default en)
  --locale TAG         the language numbers and dates are written in
                       (default: --language, else en-US)
  --time-zone ZONE     the IANA zone dates are shown in (default: as written)
  --redemption-issuer ID
                       a Smart Tap redemption issuer: the pass's nfc becomes
                       Smart Tap (repeatable)
  --origin URL         a site allowed to show the button (repeatable; link only)
  --insert             link: insert or update the class and object first
                       (REST API), then print a link naming only the object
  --google-api-url URL the Wallet REST API (or PASSMINT_GOOGLE_API_URL;
                       default Google's) — for a local stand-in
  --google-token-url URL
                       the OAuth token endpoint (or PASSMINT_GOOGLE_TOKEN_URL)
  --json               map: print { type, class, object, losses } as JSON
  -h, --help           this text

Exit codes: 0 done (losses are warnings); 1 the pass, the credentials or the
link failed; 2 usage error.

Examples:
  passmint google map pass/ --image-base https://passes.example.com/images/
  passmint google link pass/pass.json --credentials wallet-key.json --issuer-id 3388000000012345678
  passmint google link pass/ --insert --credentials wallet-key.json --issuer-id 3388000000012345678
`;

/** `passmint google map|link`: a pass.json as a Google Wallet class and object, or as a save link. */
export const google: Command = {
  name: 'google',
  summary: 'Map a pass.json to Google Wallet (class, object, losses) or print an Add to Google Wallet link',
  usage: USAGE,
  run: runGoogle,
};

async function runGoogle(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommandLine(args, {
    'issuer-id': { type: 'string' },
    credentials: { type: 'string' },
    'image-base': { type: 'string' },
    'class-suffix': { type: 'string' },
    language: { type: 'string' },
    locale: { type: 'string' },
    'time-zone': { type: 'string' },
    'redemption-issuer': { type: 'string', multiple: true },
    origin: { type: 'string', multiple: true },
    insert: { type: 'boolean' },
    'google-api-url': { type: 'string' },
    'google-token-url': { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const [action, input, ...extra] = parsed.positionals;
  if (action !== 'map' && action !== 'link')
    throw new UsageError(
      action === undefined ? 'say what to do: `passmint google map` or `passmint google link`' : `unknown action "${action}": use map or link`,
    );
  if (input === undefined) throw new UsageError('name the pass.json (or the pass folder)');
  if (extra.length > 0) throw new UsageError(`one pass at a time (also given: ${extra.join(' ')})`);
  const issuerId = stringOption(parsed, 'issuer-id') ?? io.env['PASSMINT_GOOGLE_ISSUER_ID'];
  if (action === 'link' && issuerId === undefined) throw new UsageError('a link needs the issuer id: --issuer-id ID (from the Google Pay & Wallet Console)');
  const credentialsFile = stringOption(parsed, 'credentials') ?? io.env['PASSMINT_GOOGLE_CREDENTIALS'];
  if (action === 'link' && credentialsFile === undefined) throw new UsageError('a link needs the service-account key file: --credentials key.json');
  if (action === 'map' && flag(parsed, 'insert')) throw new UsageError('--insert goes with `passmint google link`');

  const { pass, folder } = readPass(io, input);
  if (pass === undefined) return EXIT_FAILED;
  const imageBase = stringOption(parsed, 'image-base');
  const classSuffix = stringOption(parsed, 'class-suffix');
  const language = stringOption(parsed, 'language');
  const locale = stringOption(parsed, 'locale');
  const timeZone = stringOption(parsed, 'time-zone');
  const redemptionIssuers = stringOptions(parsed, 'redemption-issuer');
  const options: GoogleMapOptions = {
    issuerId: issuerId ?? '0',
    strings: folder.strings,
    ...(imageBase === undefined ? {} : { imageUrl: (path: string) => hostedImage(folder.files, imageBase, path) }),
    ...(classSuffix === undefined ? {} : { classSuffix }),
    ...(language === undefined ? {} : { language }),
    ...(locale === undefined ? {} : { locale }),
    ...(timeZone === undefined ? {} : { timeZone }),
    ...(redemptionIssuers.length === 0 ? {} : { redemptionIssuers }),
  };
  try {
    const mapped = toGoogleWallet(pass, options);
    if (action === 'map') {
      io.stdout(flag(parsed, 'json') ? `${JSON.stringify(mapped, null, 2)}\n` : report(mapped, input));
      return EXIT_OK;
    }
    const credentials = readGoogleCredentials(readTextInput(io, credentialsFile as string, 'the service-account key file'));
    const origins = stringOptions(parsed, 'origin');
    for (const loss of mapped.losses) io.stderr(`${input}#${loss.path}: warning ${loss.code} ${loss.message}\n`);
    const url = flag(parsed, 'insert')
      ? await insertAndLink(credentials, mapped, origins, io, {
          apiUrl: stringOption(parsed, 'google-api-url') ?? io.env['PASSMINT_GOOGLE_API_URL'],
          tokenUrl: stringOption(parsed, 'google-token-url') ?? io.env['PASSMINT_GOOGLE_TOKEN_URL'],
        })
      : await createSaveUrl(credentials, {
          objects: [{ type: mapped.type, object: mapped.object }],
          classes: [{ type: mapped.type, class: mapped.class }],
          origins,
        });
    io.stdout(`${url}\n`);
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof GoogleWalletError)) throw error;
    const hint =
      error.code === 'save-link-too-long' ? ' Run again with --insert: the class and object are inserted first and the link names only the object.' : '';
    io.stderr(`passmint google: ${error.code}: ${error.message}${hint}\n`);
    return EXIT_FAILED;
  }
}

/**
 * Inserts the class and the object through the REST API (an id that exists
 * is updated: upsert), then signs a link that names only the object — short
 * whatever the pass holds.
 */
async function insertAndLink(
  credentials: GoogleCredentials,
  mapped: GoogleWalletPass,
  origins: readonly string[],
  io: CliIo,
  urls: { apiUrl: string | undefined; tokenUrl: string | undefined },
): Promise<string> {
  const client = createGoogleWalletClient({
    credentials,
    ...(urls.apiUrl === undefined ? {} : { baseUrl: urls.apiUrl }),
    ...(urls.tokenUrl === undefined ? {} : { tokenUrl: urls.tokenUrl }),
  });
  const classId = String(mapped.class['id']);
  const objectId = String(mapped.object['id']);
  await client.upsert(`${mapped.type}Class`, { ...mapped.class, id: classId });
  io.stderr(`passmint google: ${mapped.type}Class ${classId} inserted or updated\n`);
  await client.upsert(`${mapped.type}Object`, { ...mapped.object, id: objectId });
  io.stderr(`passmint google: ${mapped.type}Object ${objectId} inserted or updated\n`);
  return createSaveUrl(credentials, { objects: [{ type: mapped.type, object: { id: objectId, classId } }], origins });
}

/** The hosted URL of the largest version of an image the folder holds (`logo@3x.png`, else `@2x`, else `logo.png`): Google shows images larger than Apple's 1x. */
function hostedImage(files: ReadonlySet<string>, base: string, path: string): string | undefined {
  for (const scale of ['@3x', '@2x', '']) {
    const name = path.replace(/\.png$/, `${scale}.png`);
    if (files.has(name)) return `${base}${name}`;
  }
  return undefined;
}

interface Folder {
  readonly files: ReadonlySet<string>;
  readonly strings: { [language: string]: { [key: string]: string } };
}

/** pass.json (a file, or the one in a folder), the folder's files and its translations. */
function readPass(io: CliIo, input: string): { pass: Pass | undefined; folder: Folder } {
  const path = resolvePath(io, input);
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // readJsonSource reports the missing file
  }
  const passFile = isFolder ? join(input, 'pass.json') : input;
  const source = readJsonSource(io, passFile, 'the pass');
  const files = isFolder ? readPassFolder(path).files : siblings(dirname(path));
  const strings: Folder['strings'] = {};
  for (const [file, bytes] of files) {
    const language = /^([^/]+)\.lproj\/pass\.strings$/.exec(file)?.[1];
    if (language === undefined) continue;
    try {
      // defineProperty: a folder named __proto__.lproj is a plain key, not the object's prototype.
      Object.defineProperty(strings, language, { value: Object.fromEntries(decodePassStrings(bytes)), enumerable: true, writable: true, configurable: true });
    } catch {
      io.stderr(`${file}: warning invalid-strings not read (not a pass.strings file)\n`);
    }
  }
  const folder = { files: new Set(files.keys()), strings };
  const value = source.json.value;
  const syntax = source.json.issues.filter((issue) => issue.severity === 'error');
  if (syntax.length > 0 || value === null || typeof value !== 'object' || Array.isArray(value)) {
    io.stderr(`${passFile}: not a pass.json (a JSON object is needed)\n`);
    return { pass: undefined, folder };
  }
  return { pass: value as unknown as Pass, folder };
}

// Every image Wallet reads (iOS 18+ poster images and the enrollment logo too): the mapping names those Google has no slot for.
const IMAGES = [
  'logo',
  'strip',
  'thumbnail',
  'background',
  'footer',
  'icon',
  'artwork',
  'primaryLogo',
  'secondaryLogo',
  'venueMap',
  'personalizationLogo',
].flatMap((name) => [`${name}.png`, `${name}@2x.png`, `${name}@3x.png`]);

/** Beside a lone pass.json: only the files a pass bundle holds (images, xx.lproj/pass.strings), never a whole folder walk. */
function siblings(directory: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const names = [...IMAGES];
  try {
    for (const entry of readdirSync(directory)) if (entry.endsWith('.lproj')) names.push(`${entry}/pass.strings`);
  } catch {
    return files;
  }
  for (const name of names) {
    try {
      const file = join(directory, name);
      if (statSync(file).isFile()) files.set(name, new Uint8Array(readFileSync(file)));
    } catch {
      // not there
    }
  }
  return files;
}

function report(mapped: GoogleWalletPass, input: string): string {
  const lines = [
    `Google Wallet type: ${mapped.type}`,
    '',
    `Class (${mapped.type}Class):`,
    JSON.stringify(mapped.class, null, 2),
    '',
    `Object (${mapped.type}Object):`,
    JSON.stringify(mapped.object, null, 2),
    '',
    mapped.losses.length === 0
      ? 'Losses: none — everything carried over.'
      : `Losses (${mapped.losses.length}): what Apple Wallet shows and Google Wallet will not`,
    ...mapped.losses.map((loss) => `  ${input}#${loss.path === '' ? '' : loss.path}  ${loss.code}  ${loss.message}`),
    '',
  ];
  return lines.join('\n');
}
