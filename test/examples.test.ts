import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { examples } from '../playground/examples/index.js';
import type { Example } from '../playground/examples/index.js';
import { buildPass, validateTemplate } from '../src/index.js';
import { createDevelopmentIdentity, createPassSigner, type PassSigner, packPass, prepareFiles, type PreparedFiles, verifyPass } from '../src/pkpass/index.js';

// examples/*.json are the playground's example modules as files the command
// and the service take. They are written from the modules, never by hand:
// after changing playground/examples/, run
//   PASSMINT_WRITE_EXAMPLES=1 npx vitest run test/examples.test.ts
const folder = fileURLToPath(new URL('../examples/', import.meta.url));
const write = process.env['PASSMINT_WRITE_EXAMPLES'] === '1';

function valuesOf(example: Example): Record<string, unknown> {
  return Object.fromEntries(Object.entries(example.values).map(([name, value]) => [name, value.json ? (JSON.parse(value.text) as unknown) : value.text]));
}

function text(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

if (write) {
  for (const example of examples) {
    writeFileSync(join(folder, `${example.id}.json`), text(example.template));
    writeFileSync(join(folder, 'values', `${example.id}.json`), text(valuesOf(example)));
  }
}

const read = (path: string): string => readFileSync(join(folder, path), 'utf8');

describe('examples/', () => {
  test('holds one template and one values file per playground example, and nothing else', () => {
    const names = examples.map((example) => `${example.id}.json`).sort();
    expect(
      readdirSync(folder)
        .filter((name) => name.endsWith('.json'))
        .sort(),
    ).toEqual(names);
    expect(readdirSync(join(folder, 'values')).sort()).toEqual(names);
  });

  test.each(examples.map((example) => [example.id, example] as const))('%s.json is the playground example, byte for byte as written', (id, example) => {
    expect(read(`${id}.json`)).toBe(text(example.template));
    expect(read(`values/${id}.json`)).toBe(text(valuesOf(example)));
  });

  describe('each renders, packs and verifies with the stand-in icon and a development identity for its pass type', () => {
    let files: PreparedFiles;
    const signers = new Map<string, Promise<{ signer: PassSigner; root: string }>>();
    const signerFor = (passType: string) => {
      let made = signers.get(passType);
      if (made === undefined) {
        made = createDevelopmentIdentity({ passTypeIdentifier: passType }).then(async (identity) => ({
          signer: await createPassSigner({ certificate: identity.certificate, privateKey: identity.privateKey, wwdr: identity.wwdr }),
          root: identity.root,
        }));
        signers.set(passType, made);
      }
      return made;
    };
    beforeAll(async () => {
      files = await prepareFiles({
        'icon.png': readFileSync(join(folder, 'icon.png')),
        'icon@2x.png': readFileSync(join(folder, 'icon@2x.png')),
        'icon@3x.png': readFileSync(join(folder, 'icon@3x.png')),
      });
    });

    test('the stand-in icons are PNGs at 29, 58 and 87 pixels with no issue', () => {
      expect(files.issues).toEqual([]);
      expect(files.files.map((file) => [file.path, file.image?.size?.width])).toEqual([
        ['icon.png', 29],
        ['icon@2x.png', 58],
        ['icon@3x.png', 87],
      ]);
    });

    test.each(examples.map((example) => [example.id] as const))(
      '%s',
      async (id) => {
        const template: unknown = JSON.parse(read(`${id}.json`));
        const values: unknown = JSON.parse(read(`values/${id}.json`));
        // What the service checks of a template it is given (its id replaced by the service's own).
        expect(validateTemplate({ ...(template as object), id: 1 }).issues.filter((issue) => issue.severity === 'error')).toEqual([]);
        const passType = (template as { passType: string }).passType;
        const { signer, root } = await signerFor(passType);
        const pass = buildPass(template as never, values as never, {
          teamIdentifier: signer.teamIdentifier,
          organizationName: 'Example',
          serialNumber: `${id}-1`,
        });
        const pkpass = await packPass(pass, files, signer);
        const report = await verifyPass(pkpass, { roots: [root] });
        expect(report.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
        expect(report.issues.map((issue) => issue.code)).toContain('development-certificate');
      },
      60_000,
    );
  });
});
