import { DerError } from './der-error.js';

/**
 * One element of a parsed DER/BER tree. `raw` and `content` are views into the
 * parsed bytes (nothing is copied), so what is hashed is exactly what was found.
 *
 * @example
 * ```ts
 * const node: DerNode = parseDer(certificateDer);
 * node.children[0]?.raw; // the TBSCertificate, as signed
 * ```
 */
export interface DerNode {
  /** The identifier octet: class (bits 8–7), constructed (bit 6), tag number (bits 5–1). */
  readonly tag: number;
  /** The whole element as found: identifier, length, content and, for an indefinite length, the end-of-contents octets. */
  readonly raw: Uint8Array;
  /** The content octets (for an indefinite length without the end-of-contents octets). */
  readonly content: Uint8Array;
  /** Offset of the identifier octet in the parsed bytes. */
  readonly offset: number;
  /** Whether the length was BER's indefinite form. */
  readonly indefinite: boolean;
  /** The elements inside a constructed element, in order; empty for a primitive one. */
  readonly children: readonly DerNode[];
}

/**
 * How strictly `parseDer` reads. The defaults are DER's rules.
 *
 * @example
 * ```ts
 * const options: DerOptions = { ber: true }; // CMS from producers that write BER
 * ```
 */
export interface DerOptions {
  /** Accept BER: indefinite lengths on constructed elements, and lengths in more octets than needed. Default `false`. */
  readonly ber?: boolean;
  /** Deepest nesting accepted; deeper input is an error, never a stack overflow. Default 32. */
  readonly maxDepth?: number;
  /** Accept bytes after the first element (they are ignored). Default `false`. */
  readonly trailing?: boolean;
  /** Most elements accepted in all; more is an error. Default 100,000 (a certificate has about a hundred). */
  readonly maxElements?: number;
}

const EMPTY: readonly DerNode[] = Object.freeze([]);

/**
 * Parses one DER element and everything inside it, bounds-checked and
 * depth-limited, in time linear in the input. Throws only `DerError`.
 *
 * High tag numbers (identifier `…11111`) are refused: nothing in X.509, CMS or
 * PKCS #12 uses them.
 *
 * @example
 * ```ts
 * const certificate = parseDer(der);
 * const [tbs, algorithm, signature] = certificate.children;
 * ```
 */
export function parseDer(bytes: Uint8Array, options: DerOptions = {}): DerNode {
  const reader = new Reader(bytes, options.ber === true, options.maxDepth ?? 32, options.maxElements ?? 100_000);
  const node = reader.element(0, bytes.length, 0);
  const end = node.offset + node.raw.length;
  if (end !== bytes.length && options.trailing !== true) throw new DerError(`${bytes.length - end} bytes after the element`, end);
  return node;
}

class Reader {
  // Each element costs a few objects; a bound on their number bounds memory
  // (two bytes per empty SEQUENCE would otherwise make millions from a few MB).
  private elements = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly ber: boolean,
    private readonly maxDepth: number,
    private readonly maxElements: number,
  ) {}

  element(offset: number, limit: number, depth: number): DerNode {
    const { bytes } = this;
    if (depth > this.maxDepth) throw new DerError(`nested deeper than ${this.maxDepth} levels`, offset);
    if (++this.elements > this.maxElements) throw new DerError(`more than ${this.maxElements} elements`, offset);
    if (offset + 2 > limit) throw new DerError('truncated element header', offset);
    const tag = bytes[offset] as number;
    if ((tag & 0x1f) === 0x1f) throw new DerError('high tag numbers are not supported', offset);
    if (tag === 0) throw new DerError('unexpected end-of-contents', offset);
    const constructed = (tag & 0x20) !== 0;
    const first = bytes[offset + 1] as number;
    let contentStart = offset + 2;

    if (first === 0x80) {
      if (!this.ber) throw new DerError('indefinite length is not DER', offset);
      if (!constructed) throw new DerError('indefinite length on a primitive element', offset);
      const children: DerNode[] = [];
      let position = contentStart;
      for (;;) {
        if (position + 2 > limit) throw new DerError('indefinite length without end-of-contents', offset);
        if (bytes[position] === 0 && bytes[position + 1] === 0) break;
        const child = this.element(position, limit, depth + 1);
        children.push(child);
        position = child.offset + child.raw.length;
      }
      return {
        tag,
        raw: bytes.subarray(offset, position + 2),
        content: bytes.subarray(contentStart, position),
        offset,
        indefinite: true,
        children,
      };
    }

    let length = first;
    if (first > 0x80) {
      const count = first & 0x7f;
      // Four length octets cover 4 GiB, more than any input here can hold.
      if (count > 4) throw new DerError('length too long', offset);
      if (contentStart + count > limit) throw new DerError('truncated length', offset);
      length = 0;
      for (let index = 0; index < count; index++) length = length * 256 + (bytes[contentStart + index] as number);
      if (!this.ber && (length < 0x80 || (bytes[contentStart] as number) === 0)) {
        throw new DerError('length not in its shortest form', offset);
      }
      contentStart += count;
    }
    const end = contentStart + length;
    if (end > limit) throw new DerError(`length ${length} runs past the end of its container`, offset);

    let children = EMPTY;
    if (constructed) {
      const list: DerNode[] = [];
      let position = contentStart;
      while (position < end) {
        const child = this.element(position, end, depth + 1);
        list.push(child);
        position = child.offset + child.raw.length;
      }
      children = list;
    }
    return {
      tag,
      raw: bytes.subarray(offset, end),
      content: bytes.subarray(contentStart, end),
      offset,
      indefinite: false,
      children,
    };
  }
}
