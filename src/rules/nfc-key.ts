// `nfc.encryptionPublicKey`: the base64 DER of an X.509 SubjectPublicKeyInfo
// holding an ECDH P-256 key (Apple: "Use a Base64-encoded X.509
// SubjectPublicKeyInfo structure that contains an ECDH public key for group
// P256"). A terminal encrypts the NFC payload to it: any other key and no
// reader can talk to the pass. A few lines of DER reading, kept here so the
// core imports nothing from passmint/pkpass.

const SEQUENCE = 0x30;
const OID = 0x06;
const BIT_STRING = 0x03;

// 1.2.840.10045.2.1 id-ecPublicKey and 1.2.840.10045.3.1.7 prime256v1 (secp256r1), as DER contents.
const EC_PUBLIC_KEY = '2a8648ce3d0201';
const PRIME256V1 = '2a8648ce3d030107';
const KNOWN_ALGORITHMS: Readonly<Record<string, string>> = {
  '2a864886f70d010101': 'an RSA key',
  '2b6570': 'an Ed25519 key',
  '2b656e': 'an X25519 key',
};
const KNOWN_CURVES: Readonly<Record<string, string>> = {
  '2b81040022': 'P-384 (secp384r1)',
  '2b81040023': 'P-521 (secp521r1)',
  '2b8104000a': 'secp256k1',
};

interface Element {
  readonly tag: number;
  readonly start: number;
  readonly end: number;
}

/** One DER element at `offset`: tag, where its content starts and ends; `undefined` when the bytes do not hold one. */
function element(bytes: Uint8Array, offset: number, limit: number): Element | undefined {
  if (offset + 2 > limit) return undefined;
  const tag = bytes[offset] as number;
  let length = bytes[offset + 1] as number;
  let start = offset + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets === 0 || octets > 3 || start + octets > limit) return undefined;
    length = 0;
    for (let index = 0; index < octets; index++) length = length * 256 + (bytes[start + index] as number);
    start += octets;
  }
  const end = start + length;
  return end > limit ? undefined : { tag, start, end };
}

function hex(bytes: Uint8Array, { start, end }: Element): string {
  let text = '';
  for (let index = start; index < end; index++) text += (bytes[index] as number).toString(16).padStart(2, '0');
  return text;
}

function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(text)) return undefined;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return undefined;
  }
}

/**
 * Why `text` is not what Apple asks for in `nfc.encryptionPublicKey` — base64
 * of a DER SubjectPublicKeyInfo with algorithm id-ecPublicKey, curve
 * prime256v1 and a 65-byte uncompressed point — or `undefined` when it is.
 *
 * @example
 * ```ts
 * nfcKeyProblem('MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE…'); // undefined for a P-256 key
 * nfcKeyProblem('hello'); // 'is not base64 …'
 * ```
 */
export function nfcKeyProblem(text: string): string | undefined {
  if (text.includes('-----BEGIN')) return 'is PEM; give only the base64 between the BEGIN and END lines, on one line';
  const bytes = decodeBase64(text);
  if (bytes === undefined || bytes.length === 0) return 'is not base64 (it must be the base64 DER of an X.509 SubjectPublicKeyInfo)';
  const notSpki = 'is not an X.509 SubjectPublicKeyInfo in DER (the base64 decodes to something else)';
  const spki = element(bytes, 0, bytes.length);
  if (spki === undefined || spki.tag !== SEQUENCE || spki.end !== bytes.length) return notSpki;
  const algorithm = element(bytes, spki.start, spki.end);
  if (algorithm === undefined || algorithm.tag !== SEQUENCE) return notSpki;
  const keyBits = element(bytes, algorithm.end, spki.end);
  if (keyBits === undefined || keyBits.tag !== BIT_STRING || keyBits.end !== spki.end) return notSpki;
  const algorithmId = element(bytes, algorithm.start, algorithm.end);
  if (algorithmId === undefined || algorithmId.tag !== OID) return notSpki;
  const algorithmHex = hex(bytes, algorithmId);
  if (algorithmHex !== EC_PUBLIC_KEY)
    return `holds ${KNOWN_ALGORITHMS[algorithmHex] ?? 'a key that is not elliptic-curve'}; Apple wants an ECDH P-256 (prime256v1) key`;
  const curve = element(bytes, algorithmId.end, algorithm.end);
  if (curve === undefined || curve.tag !== OID) return 'names no named curve; Apple wants an ECDH P-256 (prime256v1) key';
  const curveHex = hex(bytes, curve);
  if (curveHex !== PRIME256V1) return `is a key on ${KNOWN_CURVES[curveHex] ?? 'another curve'}; Apple wants P-256 (prime256v1)`;
  // BIT STRING: one octet of unused bits (0), then the point: 04 ‖ x (32) ‖ y (32).
  const point = keyBits.end - keyBits.start - 1;
  if (bytes[keyBits.start] !== 0 || point !== 65 || bytes[keyBits.start + 1] !== 0x04) {
    return `holds a ${Math.max(point, 0)}-byte point${bytes[keyBits.start + 1] === 0x02 || bytes[keyBits.start + 1] === 0x03 ? ' (compressed)' : ''}; a P-256 public key is the 65-byte uncompressed point (04, x, y)`;
  }
  return undefined;
}
