import { effect } from '@preact/signals';
import { setTheme, type Theme, theme } from '../state.js';

const KEY = 'passmint-playground-theme';

/**
 * Starts from the saved choice, else the system's `prefers-color-scheme`, and
 * mirrors the theme signal onto `<html data-theme>` (which the CSS reads).
 *
 * @example
 * ```ts
 * startTheme();
 * ```
 */
export function startTheme(): void {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    // Storage may be blocked (private mode, sandboxed frame): fall back to the system setting.
  }
  const system: Theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  setTheme(saved === 'dark' || saved === 'light' ? saved : system);
  let first = true;
  effect(() => {
    const current = theme.value;
    document.documentElement.dataset['theme'] = current;
    if (first) {
      first = false;
      return;
    }
    try {
      localStorage.setItem(KEY, current);
    } catch {
      // Not saved; the toggle still works for this visit.
    }
  });
}
