import { DerError } from '../asn1/der-error.js';
import { parseDer, type DerNode } from '../asn1/der-reader.js';
import { childrenOf, readOctets, readOid, readSmallInteger, readUnsigned } from '../asn1/der-values.js';
import { NULL, integer, octetString, oid, sequence } from '../asn1/der-writer.js';
import { TAG } from '../asn1/tags.js';
import { OID } from '../oids.js';
import { pemText, readPem } from '../pem.js';
import { decryptPbes2, wrongPassphrase, type DecryptProblem } from './pbes2.js';

/**
 * An RSA private key ready for Web Crypto: PKCS #8 DER, with the public half
 * for matching it to a certificate.
 *
 * @example
 * ```ts
 * const key = await readPrivateKey(pem);
 * if (!('code' in key)) key.modulus.length; // 256 for RSA 2048
 * ```
 */
export interface RsaPrivateKey {
  readonly pkcs8: Uint8Array;
  readonly modulus: Uint8Array;
  readonly exponent: Uint8Array;
}

/** Why a private key cannot be used. */
export type KeyProblem = DecryptProblem;

const CONVERT_LEGACY_PEM = 'openssl pkcs8 -topk8 -v2 aes-256-cbc -in key.pem -out key-pkcs8.pem';

/**
 * Reads a private key given as PEM (PKCS #8 "PRIVATE KEY", PKCS #1 "RSA
 * PRIVATE KEY", encrypted PKCS #8 "ENCRYPTED PRIVATE KEY") or DER (any of the
 * three), decrypting with `passphrase` when needed. RSA only: Apple issues
 * RSA 2048 keys. Never throws; a problem comes back as `{ code, message }`.
 *
 * @example
 * ```ts
 * const key = await readPrivateKey(encryptedPem, 'secret');
 * if ('code' in key) console.error(key.message);
 * ```
 */
export async function readPrivateKey(input: string | Uint8Array, passphrase?: string): Promise<RsaPrivateKey | KeyProblem> {
  try {
    const text = pemText(input);
    if (text === undefined) {
      if (typeof input === 'string') return invalid('The private key is neither PEM text nor DER bytes.');
      return await fromDer(parseDer(input), passphrase);
    }
    const block = readPem(text).find((candidate) => candidate.label.endsWith('PRIVATE KEY'));
    if (block === undefined) {
      return invalid('No PEM private key found: expected a "-----BEGIN PRIVATE KEY-----" (or RSA/ENCRYPTED PRIVATE KEY) block.');
    }
    if (block.label === 'RSA PRIVATE KEY') {
      if ((block.headers['Proc-Type'] ?? '').includes('ENCRYPTED')) {
        return invalid(
          `The private key is a legacy encrypted PEM ("Proc-Type: 4,ENCRYPTED", ${block.headers['DEK-Info'] ?? 'unknown cipher'}), which Web Crypto cannot decrypt; convert it to encrypted PKCS #8: ${CONVERT_LEGACY_PEM}.`,
        );
      }
      return fromPkcs1(parseDer(block.bytes));
    }
    if (block.label === 'PRIVATE KEY') return fromPkcs8(block.bytes);
    if (block.label === 'ENCRYPTED PRIVATE KEY') return await fromEncrypted(parseDer(block.bytes), passphrase);
    return invalid(`The private key is a "${block.label}"; Apple issues RSA keys (PKCS #8 "PRIVATE KEY" or PKCS #1 "RSA PRIVATE KEY").`);
  } catch (error) {
    if (error instanceof DerError) return invalid(`The private key is not a readable key: ${error.message}.`);
    throw error;
  }
}

async function fromDer(node: DerNode, passphrase: string | undefined): Promise<RsaPrivateKey | KeyProblem> {
  const [first, second] = childrenOf(node, TAG.SEQUENCE, 'private key', 2);
  // EncryptedPrivateKeyInfo starts with an AlgorithmIdentifier, PrivateKeyInfo
  // with a version then one, RSAPrivateKey with a version then the modulus.
  if (first?.tag === TAG.SEQUENCE) return fromEncrypted(node, passphrase);
  if (second?.tag === TAG.SEQUENCE) return fromPkcs8(node.raw);
  return fromPkcs1(node);
}

async function fromEncrypted(node: DerNode, passphrase: string | undefined): Promise<RsaPrivateKey | KeyProblem> {
  const [algorithm, data] = childrenOf(node, TAG.SEQUENCE, 'EncryptedPrivateKeyInfo', 2);
  if (passphrase === undefined) return { code: 'wrong-passphrase', message: 'The private key is encrypted: pass its passphrase as `passphrase`.' };
  const decrypted = await decryptPbes2(algorithm, readOctets(data, 'encryptedData'), passphrase);
  if (!(decrypted instanceof Uint8Array)) return decrypted;
  try {
    return fromPkcs8(decrypted);
  } catch (error) {
    // Padding that happened to check out, over bytes that are not a key: still the wrong passphrase.
    if (error instanceof DerError) return wrongPassphrase();
    throw error;
  }
}

/** Reads a PrivateKeyInfo; throws `DerError` when it is not one, returns a problem when it is not RSA. */
function fromPkcs8(der: Uint8Array): RsaPrivateKey | KeyProblem {
  const [version, algorithm, key] = childrenOf(parseDer(der), TAG.SEQUENCE, 'PrivateKeyInfo', 3);
  readSmallInteger(version, 'version');
  const type = readOid(childrenOf(algorithm, TAG.SEQUENCE, 'privateKeyAlgorithm', 1)[0], 'privateKeyAlgorithm');
  if (type !== OID.rsaEncryption) return invalid(`The private key is not RSA (algorithm ${type}); Apple issues RSA 2048 keys for Pass Type IDs.`);
  const [, modulus, exponent] = childrenOf(parseDer(readOctets(key, 'privateKey')), TAG.SEQUENCE, 'RSAPrivateKey', 9);
  return { pkcs8: der, modulus: readUnsigned(modulus, 'modulus'), exponent: readUnsigned(exponent, 'publicExponent') };
}

/** Wraps an RSAPrivateKey (PKCS #1) into a PrivateKeyInfo (PKCS #8), which Web Crypto imports. */
function fromPkcs1(node: DerNode): RsaPrivateKey {
  const [, modulus, exponent] = childrenOf(node, TAG.SEQUENCE, 'RSAPrivateKey', 9);
  const pkcs8 = sequence(integer(0), sequence(oid(OID.rsaEncryption), NULL), octetString(node.raw));
  return { pkcs8, modulus: readUnsigned(modulus, 'modulus'), exponent: readUnsigned(exponent, 'publicExponent') };
}

function invalid(message: string): KeyProblem {
  return { code: 'invalid-key', message };
}
