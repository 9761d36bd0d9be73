import type { FormValue } from '../examples/index.js';
import { readPartialJson } from './partial-json.js';

/**
 * Everything a shared link carries: the template text exactly as typed, the values,
 * the issuer, and the images by reference only (bundle path → 12 hex digits of the
 * SHA-256 of the PNG; the bytes stay in the IndexedDB of the browser that has them).
 */
export interface SharedState {
  readonly template: string;
  readonly values: Readonly<Record<string, FormValue>>;
  readonly issuer: Readonly<Record<string, string | boolean>>;
  readonly images?: Readonly<Record<string, string>>;
  /** pass.strings as typed, per language. */
  readonly strings?: Readonly<Record<string, string>>;
}

/** What the address's hash holds: nothing of ours, a state, or a link that cannot be read (and why). */
export type HashContent =
  | { readonly kind: 'none' }
  | { readonly kind: 'state'; readonly state: SharedState }
  /** A link cut short: what could be read of it, and what was lost. */
  | { readonly kind: 'partial'; readonly state: SharedState; readonly reason: string }
  | { readonly kind: 'broken'; readonly reason: string };

// Format of the URL hash: `#z=` + base64url(deflate-raw(JSON)), or `#j=` + base64url(JSON)
// where CompressionStream is missing. Deflate keeps a typical template's link around 1 KB.
const COMPRESSED = 'z=';
const PLAIN = 'j=';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  // A cut link can end one character into a 4-character group: that character holds no whole byte.
  const usable = text.length % 4 === 1 ? text.slice(0, -1) : text;
  const binary = atob(usable.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Inflates what it can: the bytes out before the stream failed, and whether it did (a cut or mangled link). */
async function inflatePrefix(bytes: Uint8Array): Promise<{ bytes: Uint8Array; failed: boolean }> {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let failed = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch {
    failed = true;
  }
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes: out, failed };
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const body = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/**
 * Encodes the state as a URL hash (without the `#`).
 *
 * @example
 * ```ts
 * location.hash = await encodeState({ template: '{}', values: {}, issuer: {} });
 * ```
 */
export async function encodeState(state: SharedState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  if (typeof CompressionStream === 'undefined') return PLAIN + toBase64Url(json);
  return COMPRESSED + toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
}

/**
 * Decodes a URL hash made by {@link encodeState}; `undefined` for anything else (never throws).
 *
 * @example
 * ```ts
 * const state = await decodeState(location.hash);
 * ```
 */
export async function decodeState(hash: string): Promise<SharedState | undefined> {
  const content = await readHash(hash);
  return content.kind === 'state' ? content.state : undefined;
}

/**
 * Reads a URL hash: `none` when it is not a shared state (empty, or an in-page
 * anchor like `#preview-heading`), `broken` when it starts like one but cannot be
 * read — truncated, mangled, not a template. Never throws.
 *
 * @example
 * ```ts
 * const content = await readHash(location.hash);
 * if (content.kind === 'broken') showBanner(content.reason);
 * ```
 */
export async function readHash(hash: string): Promise<HashContent> {
  const text = hash.replace(/^#/, '');
  let bytes: Uint8Array;
  let cut = false;
  const mangled: HashContent = {
    kind: 'broken',
    reason: 'its data is cut short or mangled (it may have been truncated when copied), and nothing of it could be read',
  };
  try {
    if (text.startsWith(COMPRESSED)) {
      const inflated = await inflatePrefix(fromBase64Url(text.slice(COMPRESSED.length)));
      bytes = inflated.bytes;
      cut = inflated.failed;
    } else if (text.startsWith(PLAIN)) {
      bytes = fromBase64Url(text.slice(PLAIN.length));
    } else {
      return { kind: 'none' };
    }
  } catch {
    return mangled;
  }
  // A cut can fall inside a UTF-8 sequence: the replacement character marks it at the end.
  const decoded = new TextDecoder('utf-8').decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(decoded);
  } catch {
    return (
      recover(decoded.replace(/\uFFFD+$/, ''), cut) ??
      (cut || bytes.length === 0 ? mangled : { kind: 'broken', reason: 'its data is not the JSON a playground link holds' })
    );
  }
  const state = asSharedState(json);
  return state === undefined ? { kind: 'broken', reason: 'it holds no template' } : { kind: 'state', state };
}

const PART_NAMES: Readonly<Record<string, string>> = { template: 'the template', values: 'the values', issuer: 'the issuer', images: 'the image names' };

/** What a cut link still holds: the members read whole, the one it was cut in, and what came after it is lost. */
function recover(text: string, cut: boolean): HashContent | undefined {
  const partial = readPartialJson(text);
  if (partial === undefined || partial.complete || !isRecord(partial.value) || typeof partial.value['template'] !== 'string') return undefined;
  const state = asSharedState(partial.value);
  if (state === undefined) return undefined;
  const [part, name] = partial.cut;
  const how = cut ? 'is cut short (it may have been truncated when copied)' : 'ends early';
  if (part === 'template') {
    return {
      kind: 'partial',
      state,
      reason: `This link ${how} inside the template: the ${state.template.length.toLocaleString('en')} characters that could be read are in the editor (the end is missing, so it does not parse); its values and issuer are lost`,
    };
  }
  const kept = Object.keys(PART_NAMES).filter((key) => Object.hasOwn(partial.value as object, key) && key !== part);
  const where = part === undefined ? '' : ` in ${PART_NAMES[part] ?? part}${name === undefined ? '' : ` (at "${name}")`}`;
  return {
    kind: 'partial',
    state,
    reason: `This link ${how}${where}. Recovered: ${kept.map((key) => PART_NAMES[key]).join(', ')}${part === undefined ? '' : `, and ${PART_NAMES[part] ?? part} up to the cut`}; what came after it is lost`,
  };
}

const IMAGE_PATH = /^(icon|logo|strip|thumbnail|background|footer|artwork|primaryLogo|secondaryLogo|venueMap)(@[23]x)?\.png$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asSharedState(value: unknown): SharedState | undefined {
  if (!isRecord(value) || typeof value['template'] !== 'string') return undefined;
  // Object.fromEntries, not assignment: a name like `__proto__` must stay an ordinary key.
  const values = Object.fromEntries(
    Object.entries(isRecord(value['values']) ? value['values'] : {}).flatMap(([name, entry]) =>
      isRecord(entry) && typeof entry['text'] === 'string' ? [[name, { text: entry['text'], json: entry['json'] === true }]] : [],
    ),
  );
  const issuer = Object.fromEntries(
    Object.entries(isRecord(value['issuer']) ? value['issuer'] : {}).filter(
      (entry): entry is [string, string | boolean] => typeof entry[1] === 'string' || typeof entry[1] === 'boolean',
    ),
  );
  const images = Object.fromEntries(
    Object.entries(isRecord(value['images']) ? value['images'] : {}).filter(
      (entry): entry is [string, string] => IMAGE_PATH.test(entry[0]) && typeof entry[1] === 'string' && /^[0-9a-f]{12}$/.test(entry[1]),
    ),
  );
  const strings = Object.fromEntries(
    Object.entries(isRecord(value['strings']) ? value['strings'] : {}).filter(
      (entry): entry is [string, string] => /^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/.test(entry[0]) && typeof entry[1] === 'string',
    ),
  );
  return {
    template: value['template'],
    values,
    issuer,
    ...(Object.keys(images).length === 0 ? {} : { images }),
    ...(Object.keys(strings).length === 0 ? {} : { strings }),
  };
}
