import type { JSX } from 'preact';
import type { Pass } from '../../src/index.js';
import { BarcodeView } from '../../playground/components/BarcodeView.js';
import { PassCard } from '../../playground/components/PassCard.js';

/** A pass drawn as Wallet shows it (the playground's drawing), without its images. */
export function PassDrawing({ pass }: { pass: Pass }): JSX.Element {
  return <PassCard pass={pass} images={{}} testId="pass-drawing" />;
}

/** A link as a QR code (drawn by the playground's barcode view), for a phone's camera. */
export function QrCode({ text }: { text: string }): JSX.Element {
  return (
    <div class="qr" data-testid="share-qr">
      <BarcodeView barcode={{ format: 'PKBarcodeFormatQR', message: text, messageEncoding: 'iso-8859-1', altText: 'Share link' }} />
    </div>
  );
}
