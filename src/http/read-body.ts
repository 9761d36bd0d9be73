import { readLimited } from '../read-limited.js';
import { ApiError } from './api-error.js';
import { createProblem } from './problem.js';

/**
 * A response body as text, read chunk by chunk and abandoned (the stream
 * cancelled) as soon as it passes `maxBytes`: a server cannot make the client
 * buffer more than that. A `Content-Length` already over the cap is refused
 * before reading. Throws `ApiError` `response-too-large`.
 */
export async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    response.body?.cancel().catch(() => undefined);
    throw tooLarge(response, maxBytes);
  }
  const body: unknown = response.body;
  if (body === null || body === undefined) return '';
  if (typeof (body as ReadableStream).getReader !== 'function') {
    // A fetch stand-in without a stream: it has read the body already.
    const text = await response.text();
    if (text.length > maxBytes) throw tooLarge(response, maxBytes);
    return text;
  }
  const bytes = await readLimited(body as ReadableStream<Uint8Array>, maxBytes);
  if (bytes === undefined) throw tooLarge(response, maxBytes);
  return new TextDecoder().decode(bytes);
}

function tooLarge(response: Response, maxBytes: number): ApiError {
  const detail = `The response body is larger than ${maxBytes} bytes (the client's maxResponseBytes).`;
  return new ApiError(response.status, createProblem('response-too-large', response.status, detail));
}
