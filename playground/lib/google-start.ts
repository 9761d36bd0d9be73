import { googleMapper } from '../state.js';

/**
 * Loads the Google Wallet mapping when the page is idle, so the first paint does not
 * wait for it; from then on the preview can draw Google's view and the issues list
 * shows what Google Wallet loses.
 *
 * @example
 * ```ts
 * startGoogle();
 * ```
 */
export function startGoogle(): void {
  const load = (): void => {
    void import('./google-view.js').then((module) => {
      googleMapper.value = (pass, images) => module.mapToGoogle(pass, images);
    });
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}
