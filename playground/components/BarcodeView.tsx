import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Barcode } from '../../src/index.js';
import { previewProblems } from '../state.js';

const DRAWABLE = new Set(['PKBarcodeFormatQR', 'PKBarcodeFormatPDF417', 'PKBarcodeFormatAztec', 'PKBarcodeFormatCode128']);

/** How a format is spoken. */
const FORMAT_NAMES: Readonly<Record<string, string>> = { QR: 'QR code', Aztec: 'Aztec code', PDF417: 'PDF417 barcode', Code128: 'Code 128 barcode' };

function report(message: string | undefined): void {
  const next =
    message === undefined
      ? []
      : [
          {
            id: 'preview:barcode',
            source: 'preview' as const,
            severity: 'error' as const,
            code: 'barcode-message-unencodable',
            message,
            path: '/barcodes/0/message',
          },
        ];
  if (next.length !== 0 || previewProblems.peek().length !== 0) previewProblems.value = next;
}

/**
 * The pass's barcode, drawn for real by bwip-js (loaded on first use) and shown at
 * Wallet's proportions. A message the symbology cannot hold is drawn as an error
 * and, in the main preview (`reportIssues`), listed with the issues.
 */
export function BarcodeView({ barcode, reportIssues = false }: { barcode: Barcode; reportIssues?: boolean }): JSX.Element {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<{ status: 'loading' | 'drawn' | 'error'; message?: string }>({ status: 'loading' });
  const { format, message } = barcode;

  useEffect(() => {
    let cancelled = false;
    const fail = (text: string): void => {
      setState({ status: 'error', message: text });
      if (reportIssues) report(`The preview cannot draw this ${String(format).replace('PKBarcodeFormat', '')} barcode: ${text}`);
    };
    if (!DRAWABLE.has(format)) {
      fail(`Wallet cannot draw format "${String(format)}"`);
      return undefined;
    }
    import('../lib/barcode-draw.js')
      .then(({ drawBarcode, isDrawable }) => {
        if (cancelled || canvas.current === null || !isDrawable(format)) return;
        try {
          drawBarcode(canvas.current, format, message);
        } catch (error) {
          fail(error instanceof Error ? error.message : String(error));
          return;
        }
        setState({ status: 'drawn' });
        if (reportIssues) report(undefined);
      })
      .catch((error: unknown) => {
        if (!cancelled) setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      cancelled = true;
    };
  }, [format, message, reportIssues]);
  useEffect(() => () => void (reportIssues && report(undefined)), [reportIssues]);

  const shortFormat = String(format).replace('PKBarcodeFormat', '');
  // A screen reader hears what the code holds ("QR code: member:NC-004217"), not just that there is one.
  const spoken = `${FORMAT_NAMES[shortFormat] ?? `${shortFormat} barcode`}: ${String(message)}`;
  return (
    <figure class="barcode" data-testid="barcode" data-format={format} data-status={state.status}>
      <canvas ref={canvas} role="img" aria-label={spoken} hidden={state.status === 'error'} />
      {state.status === 'error' ? <p class="barcode-error">Barcode not drawn: {state.message}</p> : null}
      {barcode.altText === undefined ? null : <figcaption>{barcode.altText}</figcaption>}
    </figure>
  );
}
