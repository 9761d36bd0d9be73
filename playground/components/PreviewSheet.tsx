import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { shownIssues } from '../state.js';
import { PassPreview } from './PassPreview.js';

/**
 * On a phone: a button that stays in the corner and brings up the pass in a sheet
 * over the bottom of the page. Nothing scrolls and the focus comes back where it
 * was, so a person typing a value sees the pass and carries on. The sheet does not
 * block the page: typing with it open updates it.
 */
export function PreviewSheet(): JSX.Element {
  const [open, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const close = useRef<HTMLButtonElement>(null);

  // Where the person was: the last element focused outside the sheet and its button.
  useEffect(() => {
    const remember = (event: FocusEvent): void => {
      const target = event.target;
      if (target instanceof HTMLElement && target.closest('.phone-preview') === null) returnTo.current = target;
    };
    addEventListener('focusin', remember);
    return () => removeEventListener('focusin', remember);
  }, []);

  const hide = (): void => {
    setOpen(false);
    returnTo.current?.focus({ preventScroll: true });
  };

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
        <div class="sheet" role="dialog" aria-modal="false" aria-labelledby="sheet-heading" data-testid="preview-sheet">
          <div class="sheet-bar">
            <h2 id="sheet-heading">The pass</h2>
            {errors === 0 ? null : <span class="note">{errors} error{errors === 1 ? '' : 's'} (see Issues)</span>}
            <button type="button" ref={close} onClick={hide} data-testid="close-sheet">
              Close
            </button>
          </div>
          <PassPreview testId="sheet-preview" />
        </div>
      ) : null}
      <button
        type="button"
        class="show-pass"
        aria-expanded={open}
        data-testid="show-pass"
        onClick={() => (open ? hide() : setOpen(true))}
      >
        {open ? 'Hide the pass' : 'Show the pass'}
      </button>
    </div>
  );
}
