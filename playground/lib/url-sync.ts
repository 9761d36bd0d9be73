import { effect } from '@preact/signals';
import { restoreImages } from '../images.js';
import { applySharedState, linkProblem, refreshIssuesNow, sharedState } from '../state.js';
import { encodeState, type HashContent, readHash, type SharedState } from './share.js';

async function apply(state: SharedState): Promise<void> {
  linkProblem.value = '';
  applySharedState(state);
  refreshIssuesNow();
  await restoreImages(state.images ?? {});
  refreshIssuesNow();
}

function report(content: Extract<HashContent, { kind: 'broken' }>): void {
  linkProblem.value = `This link could not be opened: ${content.reason}. The page shows the default example instead, and the address is left as it was until you change something.`;
}

const idle = (run: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 500 });
  else setTimeout(run, 0);
};

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
  const initial = await readHash(location.hash);
  if (initial.kind === 'state') await apply(initial.state);
  if (initial.kind === 'broken') report(initial);
  if (initial.kind === 'partial') {
    await apply(initial.state);
    linkProblem.value = `${initial.reason}. The address is left as it was until you change something.`;
  }
  let written = location.hash;
  let timer = 0;
  let run = 0;
  // A broken link stays in the address bar (to be copied, or fixed) until the person edits.
  let hold = initial.kind === 'broken' || initial.kind === 'partial';
  effect(() => {
    const state = sharedState.value;
    if (hold) {
      hold = false;
      return;
    }
    clearTimeout(timer);
    const id = ++run;
    // Writing the address costs milliseconds for a long state (replaceState of a
    // 10 KB URL): it waits for a pause in typing, then for an idle moment, so it
    // never lands between a keystroke and its painted preview.
    timer = window.setTimeout(() => {
      idle(() => {
        if (id !== run) return;
        void encodeState(state).then((hash) => {
          if (id !== run) return;
          written = `#${hash}`;
          if (location.hash !== written) history.replaceState(null, '', written);
        });
      });
    }, 300);
  });
  addEventListener('hashchange', () => {
    if (location.hash === written) return;
    void readHash(location.hash).then((content) => {
      if (content.kind === 'state') void apply(content.state);
      else if (content.kind === 'partial') void apply(content.state).then(() => (linkProblem.value = `${content.reason}.`));
      else if (content.kind === 'broken') report(content);
      // An in-page anchor (#preview-heading): it has scrolled; put the state back in the address.
      else if (written !== '') history.replaceState(null, '', written);
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
