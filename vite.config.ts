import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { sizeReport } from './playground/build/size-report.js';

// The playground lives in playground/ and imports the library straight from src/,
// so a change to the library shows in the browser without a build step.
export default defineConfig({
  root: 'playground',
  base: './',
  plugins: [
    preact(),
    sizeReport({
      initialBudgetKb: 150,
      // Barcode drawing, CodeMirror, zipping, signing and the inspector load when first used.
      lazyOnly: ['bwip-js', '@codemirror/view', 'fflate', '/src/pkpass/signer.ts', '/src/pkpass/verify.ts', '/src/pkpass/read.ts', '/src/pkpass/pack.ts'],
    }),
  ],
  build: {
    outDir: '../playground-dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
