// Part of `npm run build`: tsc does not emit checked-in JavaScript (allowJs is
// off), so the generated validators and their types are copied next to the
// compiled modules that import them.
import { copyFileSync, mkdirSync } from 'node:fs';
import { generatedFiles } from './validators-source.js';

const from = new URL('../src/schema/', import.meta.url);
const to = new URL('../dist/schema/', import.meta.url);
mkdirSync(to, { recursive: true });
for (const file of generatedFiles) copyFileSync(new URL(file, from), new URL(file, to));
