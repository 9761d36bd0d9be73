import { signal } from '@preact/signals';
import type { ComponentType, JSX } from 'preact';

/** A component whose code is a separate chunk: `fallback` renders until `load()` resolves. */
export interface LazyComponent<P> {
  (props: P): JSX.Element;
  /** Starts loading now (e.g. at startup, in parallel with the first render). */
  preload(): Promise<unknown>;
}

/**
 * Splits a component into its own chunk, loaded on first render or on `preload()`.
 *
 * @example
 * ```tsx
 * const Editor = lazyComponent(() => import('./Editor.js').then((m) => m.Editor), PlainEditor);
 * ```
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ComponentType<P>): LazyComponent<P> {
  const loaded = signal<ComponentType<P> | undefined>(undefined);
  let pending: Promise<unknown> | undefined;
  const preload = (): Promise<unknown> =>
    (pending ??= load().then((component) => {
      loaded.value = component;
    }));
  const Lazy = (props: P): JSX.Element => {
    const Component = loaded.value;
    if (Component === undefined) {
      void preload();
      const Fallback = fallback;
      return <Fallback {...props} />;
    }
    return <Component {...props} />;
  };
  return Object.assign(Lazy, { preload });
}
