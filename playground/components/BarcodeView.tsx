import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Barcode } from '../../src/index.js';

const DRAWABLE = new Set(['PKBarcodeFormatQR', 'PKBarcodeFormatPDF417', 'PKBarcodeFormatAztec', 'PKBarcodeFormatCode128']);

/** The pass's barcode, drawn for real by bwip-js, which loads on first use. */
export function BarcodeView({ barcode }: { barcode: Barcode }): JSX.Element {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<{ status: 'loading' | 'drawn' | 'error'; message?: string }>({ status: 'loading' });
  const { format, message } = barcode;

  useEffect(() => {
    let cancelled = false;
    if (!DRAWABLE.has(format)) {
      setState({ status: 'error', message: `Wallet cannot draw format "${String(format)}"` });
      return undefined;
    }
    import('../lib/barcode-draw.js')
      .then(({ drawBarcode, isDrawable }) => {
        if (cancelled || canvas.current === null || !isDrawable(format)) return;
        drawBarcode(canvas.current, format, message);
        setState({ status: 'drawn' });
      })
      .catch((error: unknown) => {
        if (!cancelled) setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      cancelled = true;
    };
  }, [format, message]);

  const shortFormat = String(format).replace('PKBarcodeFormat', '');
  return (
    <figure class="barcode" data-testid="barcode" data-format={format} data-status={state.status}>
      <canvas ref={canvas} role="img" aria-label={`${shortFormat} barcode: ${message}`} hidden={state.status === 'error'} />
      {state.status === 'error' ? <p class="barcode-error">Barcode not drawn: {state.message}</p> : null}
      {barcode.altText === undefined ? null : <figcaption>{barcode.altText}</figcaption>}
    </figure>
  );
}
