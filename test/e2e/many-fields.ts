import { deflateRawSync } from 'node:zlib';

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;

/** A generic pass with `count` fields (one primary, four secondary, four auxiliary, the rest on the back), every value filled in. */
export function manyFields(count: number): { template: Record<string, unknown>; values: Record<string, { text: string; json: boolean }> } {
  const fields = Array.from({ length: count }, (_, i) => ({ key: `f${i}`, label: `Label ${i}`, value: `\${v${i}}` }));
  return {
    template: {
      id: count,
      name: `${count} fields`,
      formatVersion: 1,
      passType: 'pass.com.example.perf',
      description: {
        logoText: 'Perf',
        backgroundColor: 'rgb(30, 41, 59)',
        foregroundColor: 'rgb(255, 255, 255)',
        generic: {
          primaryFields: fields.slice(0, 1),
          secondaryFields: fields.slice(1, 5),
          auxiliaryFields: fields.slice(5, 9),
          backFields: fields.slice(9),
        },
      },
      placeholder: fields.map((_, i) => `v${i}`),
    },
    values: Object.fromEntries(fields.map((_, i) => [`v${i}`, { text: `Value ${i}`, json: false }])),
  };
}

/** The `#z=` hash of a shared link holding this template and values. */
export function sharedHash(template: unknown, values: Record<string, unknown>): string {
  return `#z=${deflateRawSync(JSON.stringify({ template: templateText(template), values, issuer: {} })).toString('base64url')}`;
}
