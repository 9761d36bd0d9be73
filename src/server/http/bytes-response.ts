// A Response whose body is bytes already in memory. A Response made from a
// string or bytes builds a web stream at once, and the Node listener then read
// it back chunk by chunk: about 20 µs per answer, more than routing it. This
// one keeps the bytes; the Node listener writes them as they are, and anything
// else reading the body (a test, another adapter) gets it as usual.

const encoder = new TextEncoder();

/**
 * A `Response` holding its body as bytes: `takeBytes()` hands them over
 * without a stream; `body`, `arrayBuffer()`, `text()`, `json()`, `blob()` and
 * `clone()` behave as a `Response`'s do.
 *
 * @example
 * ```ts
 * const response = new BytesResponse('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
 * await response.json(); // { ok: true }
 * ```
 */
export class BytesResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;
  #used = false;

  constructor(body: string | Uint8Array, init: ResponseInit = {}) {
    super(null, init);
    this.#bytes = (typeof body === 'string' ? encoder.encode(body) : body) as Uint8Array<ArrayBuffer>;
  }

  /** The bytes, once, when nothing has read the body yet; `undefined` otherwise. */
  takeBytes(): Uint8Array<ArrayBuffer> | undefined {
    if (this.#used || this.#stream !== undefined) return undefined;
    this.#used = true;
    return this.#bytes;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    if (this.#stream === undefined) {
      const bytes = this.#used ? new Uint8Array(new ArrayBuffer(0)) : this.#bytes;
      this.#stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
        start(controller) {
          if (bytes.byteLength > 0) controller.enqueue(bytes);
          controller.close();
        },
      });
    }
    return this.#stream;
  }

  override get bodyUsed(): boolean {
    return this.#used || (this.#stream !== undefined && this.#stream.locked);
  }

  #consume(): Uint8Array<ArrayBuffer> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    if (this.#stream !== undefined) throw new TypeError('Body is unusable: its stream was taken');
    this.#used = true;
    return this.#bytes;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#consume();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(this.#consume());
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  override async blob(): Promise<Blob> {
    const type = this.headers.get('content-type');
    return new Blob([this.#consume()], type === null ? {} : { type });
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    return new BytesResponse(this.#bytes.slice(), { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) });
  }
}
