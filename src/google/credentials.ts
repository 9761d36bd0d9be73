import { NULL, oid, octetString, parseDer, readOid, sequence, integer } from '../pkpass/asn1/index.js';
import { readPem } from '../pkpass/pem.js';
import { GoogleWalletError } from './error.js';
import type { GoogleCredentials } from './types.js';

const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';

/**
 * Reads and checks a service-account key file (its JSON text or the parsed
 * object): it must be a service account's key (`"type": "service_account"`,
 * not an OAuth client file), name its `client_email`, and hold an RSA private
 * key in PEM. Throws `GoogleWalletError` with a code saying what is wrong.
 *
 * @example
 * ```ts
 * const credentials = readGoogleCredentials(await readFile('wallet-key.json', 'utf8'));
 * credentials.clientEmail; // 'wallet@my-project.iam.gserviceaccount.com'
 * ```
 */
export function readGoogleCredentials(json: string | object): GoogleCredentials {
  let file: unknown = json;
  if (typeof json === 'string') {
    try {
      file = JSON.parse(json);
    } catch {
      throw new GoogleWalletError(
        'not-json',
        'The credentials are not JSON: give the service-account key file downloaded from Google Cloud (IAM → Service accounts → Keys → Add key → JSON).',
      );
    }
  }
  if (file === null || typeof file !== 'object' || Array.isArray(file)) {
    throw new GoogleWalletError('not-service-account', 'The credentials must be a JSON object: the service-account key file.');
  }
  const record = file as Record<string, unknown>;
  if (record['type'] !== 'service_account') {
    const hint = 'installed' in record || 'web' in record ? ' This looks like an OAuth client file; Google Wallet needs a service account key.' : '';
    throw new GoogleWalletError('not-service-account', `The credentials are not a service-account key file ("type": "service_account").${hint}`);
  }
  const clientEmail = record['client_email'];
  if (typeof clientEmail !== 'string' || !clientEmail.includes('@')) {
    throw new GoogleWalletError('missing-client-email', 'The service-account key file has no client_email.');
  }
  const privateKeyPem = record['private_key'];
  if (typeof privateKeyPem !== 'string' || privateKeyPem.trim() === '') {
    throw new GoogleWalletError('missing-private-key', 'The service-account key file has no private_key.');
  }
  pkcs8Of(privateKeyPem);
  const credentials: GoogleCredentials = {
    clientEmail,
    privateKeyPem,
    ...(typeof record['private_key_id'] === 'string' ? { privateKeyId: record['private_key_id'] } : {}),
    ...(typeof record['project_id'] === 'string' ? { projectId: record['project_id'] } : {}),
  };
  return Object.freeze(credentials);
}

/** The PKCS #8 bytes of an RSA private key in PEM (PKCS #8 or PKCS #1); throws `bad-private-key` or `key-not-rsa`. */
export function pkcs8Of(pem: string): Uint8Array<ArrayBuffer> {
  const block = readPem(pem)[0];
  if (block === undefined) throw new GoogleWalletError('bad-private-key', 'The private_key is not a PEM private key.');
  if (block.label === 'RSA PRIVATE KEY') return sequence(integer(0), sequence(oid(RSA_ENCRYPTION), NULL), octetString(block.bytes)) as Uint8Array<ArrayBuffer>;
  if (block.label === 'EC PRIVATE KEY')
    throw new GoogleWalletError('key-not-rsa', 'The private_key is an EC key; Google Wallet signs with RS256 and needs an RSA key.');
  if (block.label !== 'PRIVATE KEY') throw new GoogleWalletError('bad-private-key', `The private_key is a PEM "${block.label}", not a private key.`);
  let algorithm: string;
  try {
    algorithm = readOid(parseDer(block.bytes).children[1]?.children[0], 'algorithm');
  } catch {
    throw new GoogleWalletError('bad-private-key', 'The private_key is not a readable PKCS #8 private key.');
  }
  if (algorithm !== RSA_ENCRYPTION)
    throw new GoogleWalletError('key-not-rsa', `The private_key is not an RSA key (algorithm ${algorithm}); Google Wallet signs with RS256.`);
  return new Uint8Array(block.bytes);
}
