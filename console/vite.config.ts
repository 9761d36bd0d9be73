import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { sizeReport } from '../playground/build/size-report.js';

// The console lives in console/, shares the playground's drawing and editor, and is
// built into dist/console/, which `passmint serve` serves at /console.
export default defineConfig({
  root: 'console',
  base: '/console/',
  plugins: [
    preact(),
    sizeReport({
      initialBudgetKb: 150,
      // The designer (CodeMirror, the playground's state), the charts, barcodes and zips load when a page first needs them.
      lazyOnly: ['bwip-js', '@codemirror/view', 'uplot', 'fflate', '/playground/state.ts'],
    }),
  ],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
