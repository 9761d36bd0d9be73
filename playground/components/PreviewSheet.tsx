import { signal } from '@preact/signals';
import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { shownIssues } from '../state.js';
import { PassPreview } from './PassPreview.js';

/** Whether the phone's sheet with the pass is up. */
const sheetOpen = signal(false);
/** Where the person was: the last element focused outside the sheet and its button. */
let returnTo: HTMLElement | null = null;

function hide(): void {
  sheetOpen.value = false;
  returnTo?.focus({ preventScroll: true });
}

/**
 * On a phone: the "Show the pass" button, in the sticky section bar at the top of the
 * screen — not floating over the page, where it covered the inputs and barcodes under
 * it — so it is one tap away from anywhere and over nothing.
 */
export function ShowPassButton(): JSX.Element {
  const open = sheetOpen.value;
  return (
    <button
      type="button"
      class="show-pass"
      aria-expanded={open}
      aria-controls={open ? 'preview-sheet' : undefined}
      data-testid="show-pass"
      onClick={() => (open ? hide() : (sheetOpen.value = true))}
    >
      {open ? 'Hide the pass' : 'Show the pass'}
    </button>
  );
}

/**
 * On a phone: the pass in a sheet over the bottom of the page, brought up by {@link ShowPassButton}.
 * Nothing scrolls and the focus comes back where it was, so a person typing a value sees the
 * pass and carries on. The sheet does not block the page: typing with it open updates it.
 */
export function PreviewSheet(): JSX.Element {
  const open = sheetOpen.value;
  const close = useRef<HTMLButtonElement>(null);
  const sheet = useRef<HTMLDivElement>(null);

  // The sheet reaches up to the section bar, never over it (the bar holds the button that hides it): its
  // height follows the bar's place, which scrolling moves until the bar sticks. Only while the sheet is up.
  useEffect(() => {
    if (!open) return undefined;
    let frame = 0;
    const place = (): void => {
      frame = 0;
      const bar = document.querySelector('[data-testid=phone-nav]')?.getBoundingClientRect().bottom ?? 0;
      sheet.current?.style.setProperty('max-height', `min(78vh, calc(100vh - ${Math.max(0, Math.round(bar)) + 6}px))`);
    };
    const schedule = (): void => {
      if (frame === 0) frame = requestAnimationFrame(place);
    };
    place();
    addEventListener('scroll', schedule, { passive: true });
    addEventListener('resize', schedule);
    return () => {
      cancelAnimationFrame(frame);
      removeEventListener('scroll', schedule);
      removeEventListener('resize', schedule);
    };
  }, [open]);

  useEffect(() => {
    const remember = (event: FocusEvent): void => {
      const target = event.target;
      if (target instanceof HTMLElement && target.closest('.phone-preview, [data-testid=show-pass]') === null) returnTo = target;
    };
    addEventListener('focusin', remember);
    return () => removeEventListener('focusin', remember);
  }, []);

  useEffect(() => {
    if (!open) return undefined;
    close.current?.focus({ preventScroll: true });
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') hide();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [open]);

  const errors = shownIssues.value.filter((entry) => entry.severity === 'error').length;
  return (
    <div class="phone-preview">
      {open ? (
        <div class="sheet" ref={sheet} id="preview-sheet" role="dialog" aria-modal="false" aria-labelledby="sheet-heading" data-testid="preview-sheet">
          <div class="sheet-bar">
            <h2 id="sheet-heading">The pass</h2>
            {errors === 0 ? null : (
              <span class="note">
                {errors} error{errors === 1 ? '' : 's'} (see Issues)
              </span>
            )}
            <button type="button" ref={close} onClick={hide} data-testid="close-sheet">
              Close
            </button>
          </div>
          <PassPreview testId="sheet-preview" />
        </div>
      ) : null}
    </div>
  );
}
