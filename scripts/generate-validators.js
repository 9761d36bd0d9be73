// npm run generate: writes src/schema/validators.js and validators.d.ts from the schemas.
import { writeFileSync } from 'node:fs';
import { generateValidatorsSource } from './validators-source.js';

const { js, dts } = generateValidatorsSource();
const dir = new URL('../src/schema/', import.meta.url);
writeFileSync(new URL('validators.js', dir), js);
writeFileSync(new URL('validators.d.ts', dir), dts);
process.stdout.write('wrote src/schema/validators.js and src/schema/validators.d.ts\n');
