// A Response holding its body as bytes: read as any Response, or taken whole once by the Node listener.
import { describe, expect, test } from 'vitest';
import { BytesResponse } from '../../src/server/http/bytes-response.js';

const make = () => new BytesResponse('{"ok":true}', { status: 201, headers: { 'content-type': 'application/json' } });

describe('BytesResponse', () => {
  test('reads like a Response: status, headers, json, text, arrayBuffer, blob; a body is read once', async () => {
    const response = make();
    expect([response.status, response.headers.get('content-type'), response.bodyUsed]).toEqual([201, 'application/json', false]);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(await make().text()).toBe('{"ok":true}');
    expect(new TextDecoder().decode(await make().arrayBuffer())).toBe('{"ok":true}');
    const blob = await make().blob();
    expect([blob.type, await blob.text()]).toEqual(['application/json', '{"ok":true}']);
  });

  test('its body stream gives the bytes, and wraps into another Response; a clone reads on its own', async () => {
    const response = make();
    expect(await new Response(response.body).text()).toBe('{"ok":true}');
    expect(response.bodyUsed).toBe(true);
    expect(response.takeBytes()).toBeUndefined();
    const original = make();
    const copy = original.clone();
    expect([await copy.json(), copy.status, copy.headers.get('content-type')]).toEqual([{ ok: true }, 201, 'application/json']);
    expect(await original.text()).toBe('{"ok":true}');
  });

  test('takeBytes hands the bytes over once, and the body is used after', () => {
    const response = new BytesResponse(new Uint8Array([1, 2, 3]));
    expect([...response.takeBytes()!]).toEqual([1, 2, 3]);
    expect(response.takeBytes()).toBeUndefined();
    expect(response.bodyUsed).toBe(true);
  });
});
