// Part of `npm run build`: tsc does not emit checked-in JavaScript (allowJs is
// off), so the generated validators and their types are copied next to the
// compiled check.js that imports them.
import { copyFileSync, mkdirSync } from 'node:fs';

const from = new URL('../src/schema/', import.meta.url);
const to = new URL('../dist/schema/', import.meta.url);
mkdirSync(to, { recursive: true });
for (const file of ['validators.js', 'validators.d.ts']) copyFileSync(new URL(file, from), new URL(file, to));
