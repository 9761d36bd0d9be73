import { effect } from '@preact/signals';
import { applySharedState, sharedState } from '../state.js';
import { decodeState, encodeState } from './share.js';

/**
 * Reads the state from the URL hash (if there is one), then keeps the hash up to
 * date (history.replaceState, so typing adds no history entries) and follows
 * hashes pasted into the address bar. Resolves once the initial state is applied.
 *
 * @example
 * ```ts
 * await startUrlSync();
 * render(<App />, root);
 * ```
 */
export async function startUrlSync(): Promise<void> {
  const initial = await decodeState(location.hash);
  if (initial !== undefined) applySharedState(initial);
  let written = location.hash;
  let timer = 0;
  let run = 0;
  effect(() => {
    const state = sharedState.value;
    clearTimeout(timer);
    const id = ++run;
    timer = window.setTimeout(() => {
      void encodeState(state).then((hash) => {
        if (id !== run) return;
        written = `#${hash}`;
        if (location.hash !== written) history.replaceState(null, '', written);
      });
    }, 150);
  });
  addEventListener('hashchange', () => {
    if (location.hash === written) return;
    void decodeState(location.hash).then((state) => {
      if (state !== undefined) applySharedState(state);
    });
  });
}

/**
 * The link to the current state, up to date even if typing just happened.
 *
 * @example
 * ```ts
 * await navigator.clipboard.writeText(await shareUrl());
 * ```
 */
export async function shareUrl(): Promise<string> {
  const url = new URL(location.href);
  url.hash = await encodeState(sharedState.peek());
  return url.toString();
}
