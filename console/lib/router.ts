import { signal } from '@preact/signals';
import type { JSX } from 'preact';
import { h } from 'preact';

/** The console's base path; every page lives under it. */
export const BASE = '/console';

/** The page's path under {@link BASE} (`/passes/pass.x/M-1`) and its query. */
export const route = signal<{ path: string; search: URLSearchParams }>(current());

function current(): { path: string; search: URLSearchParams } {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return { path: path === '' ? '/' : path, search: new URLSearchParams(location.search) };
}

/** Moves to another page of the console, with an entry in the history (the back button returns). */
export function navigate(to: string, replace = false): void {
  const url = `${BASE}${to}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route.value = current();
  // A new page: its heading takes the focus, as a page load would start at the top.
  requestAnimationFrame(() => {
    const heading = document.querySelector<HTMLElement>('main h1');
    heading?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  });
}

/** Follows the back and forward buttons. */
export function startRouter(): void {
  addEventListener('popstate', () => {
    route.value = current();
  });
}

/** The path segments after a prefix, decoded: `segments('/passes/a%2Fb/c', 'passes')` → `['a/b', 'c']`. */
export function segments(path: string): string[] {
  return path
    .split('/')
    .filter((part) => part !== '')
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
}

/** A link to a console page: a real `<a href>` (opens in a new tab too) that routes in the page on a plain click. */
export function Link(props: {
  to: string;
  children: JSX.Element | string | (JSX.Element | string)[];
  class?: string;
  'aria-current'?: 'page' | undefined;
}): JSX.Element {
  const { to, children, ...rest } = props;
  return h(
    'a',
    {
      ...rest,
      href: `${BASE}${to}`,
      onClick: (event: MouseEvent) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(to);
      },
    },
    children,
  );
}
