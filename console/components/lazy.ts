import type { Pass } from '../../src/index.js';
import { lazyComponent, type LazyComponent } from '../../playground/lib/lazy.js';

const Nothing = (): null => null;

// The pass drawing and the QR code (bwip-js) come with the playground's components, loaded when a page first shows one.
export const PassDrawing: LazyComponent<{ pass: Pass }> = lazyComponent(() => import('./Drawings.js').then((module) => module.PassDrawing), Nothing);
export const QrCode: LazyComponent<{ text: string }> = lazyComponent(() => import('./Drawings.js').then((module) => module.QrCode), Nothing);
