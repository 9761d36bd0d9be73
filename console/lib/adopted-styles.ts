import { StyleModule } from 'style-mod';

/**
 * CodeMirror's styles in a constructed stylesheet (`document.adoptedStyleSheets`),
 * which the console's `style-src 'self'` allows, instead of the `<style>` element
 * CodeMirror makes for a document, which that policy refuses. CodeMirror's style
 * modules use a constructed sheet for shadow roots: one is made for a detached
 * shadow root and given to the document, before the first editor mounts.
 */
export function adoptCodeMirrorStyles(): void {
  const shadow = document.createElement('div').attachShadow({ mode: 'open' });
  StyleModule.mount(shadow, []);
  const holder = shadow as unknown as Record<symbol, unknown>;
  const target = document as unknown as Record<symbol, unknown>;
  for (const symbol of Object.getOwnPropertySymbols(shadow)) if (target[symbol] === undefined) target[symbol] = holder[symbol];
}
