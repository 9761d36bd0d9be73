// npm run generate: writes the validator modules and their types into src/schema/ from the schemas.
import { writeFileSync } from 'node:fs';
import { generateValidatorsSource } from './validators-source.js';

const dir = new URL('../src/schema/', import.meta.url);
for (const [file, text] of Object.entries(generateValidatorsSource())) {
  writeFileSync(new URL(file, dir), text);
  process.stdout.write(`wrote src/schema/${file}\n`);
}
