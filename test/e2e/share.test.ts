import { inflateRawSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { decodeState, encodeState, readHash, type SharedState } from '../../playground/lib/share.js';

// The playground's shareable-URL format: `#z=` + base64url(deflate-raw(JSON)).
describe('shared state in the URL hash', () => {
  const state: SharedState = {
    template: '{\n  "name": "Ünïcode ✓ ${x}"\n}\n',
    values: { x: { text: 'a/b+c', json: false }, n: { text: '12.5', json: true } },
    issuer: { teamIdentifier: 'A93A5CM278', allowHttp: true },
  };

  test('round-trips, and is deflate-raw + base64url', async () => {
    const hash = await encodeState(state);
    expect(hash).toMatch(/^z=[A-Za-z0-9_-]+$/);
    expect(JSON.parse(inflateRawSync(Buffer.from(hash.slice(2), 'base64url')).toString('utf8'))).toEqual(state);
    expect(await decodeState(`#${hash}`)).toEqual(state);
  });

  test('reads the uncompressed form', async () => {
    const hash = `#j=${Buffer.from(JSON.stringify(state)).toString('base64url')}`;
    expect(await decodeState(hash)).toEqual(state);
  });

  test('a __proto__ value name stays an ordinary key', async () => {
    const hash = `#j=${Buffer.from('{"template":"{}","values":{"__proto__":{"text":"x","json":false}},"issuer":{}}').toString('base64url')}`;
    const decoded = await decodeState(hash);
    expect(Object.getPrototypeOf(decoded?.values)).toBe(Object.prototype);
    expect(Object.hasOwn(decoded?.values ?? {}, '__proto__')).toBe(true);
  });

  test.each(['', '#', '#z=', '#z=!!!', '#j=bm90IGpzb24', '#j=WzFd', '#other=1'])('ignores %j', async (hash) => {
    expect(await decodeState(hash)).toBeUndefined();
  });

  test('drops members of the wrong type', async () => {
    const hash = `#j=${Buffer.from('{"template":"t","values":{"a":{"text":1},"b":{"text":"ok","json":"yes"}},"issuer":{"x":{},"y":"z"}}').toString('base64url')}`;
    expect(await decodeState(hash)).toEqual({ template: 't', values: { b: { text: 'ok', json: false } }, issuer: { y: 'z' } });
  });

  test('images travel by reference: path → 12 hex digits; anything else is dropped', async () => {
    const images = { 'logo@2x.png': '0123456789ab', 'icon.png': 'ffffffffffff' };
    const withImages: SharedState = { ...state, images };
    expect(await decodeState(`#${await encodeState(withImages)}`)).toEqual(withImages);
    const hostile = {
      template: 't',
      values: {},
      issuer: {},
      images: { '../x.png': '0123456789ab', 'logo.png': 'ZZZ', 'strip@4x.png': '0123456789ab', 'icon@3x.png': '0123456789ab' },
    };
    const decoded = await decodeState(`#j=${Buffer.from(JSON.stringify(hostile)).toString('base64url')}`);
    expect(decoded?.images).toEqual({ 'icon@3x.png': '0123456789ab' });
  });

  test.each([
    ['', 'none'],
    ['#preview-heading', 'none'],
    ['#z=AAAA', 'broken'],
    ['#z=!!!', 'broken'],
    ['#j=bm90IGpzb24', 'broken'],
    ['#j=WzFd', 'broken'],
  ])('readHash(%j) is %s', async (hash, kind) => {
    expect((await readHash(hash)).kind).toBe(kind);
  });

  test('readHash says why a link is broken', async () => {
    expect(await readHash('#z=AAAA')).toEqual({
      kind: 'broken',
      reason: 'its data is cut short or mangled (it may have been truncated when copied), and nothing of it could be read',
    });
    // Cut by a few characters: what can be read comes back, with what was lost.
    const cut = await readHash(`#${(await encodeState(state)).slice(0, -3)}`);
    expect(cut.kind).toBe('partial');
    expect(cut.kind === 'partial' ? cut.state.template : undefined).toBe(state.template);
    expect(await readHash('#j=bm90IGpzb24')).toEqual({ kind: 'broken', reason: 'its data is not the JSON a playground link holds' });
    expect(await readHash('#j=WzFd')).toEqual({ kind: 'broken', reason: 'it holds no template' });
    expect(await readHash(`#${await encodeState(state)}`)).toEqual({ kind: 'state', state });
  });
});
