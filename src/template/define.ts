import type { PassTemplate } from '../types.js';

/**
 * Returns the template unchanged, typed as the literal it is: its declared
 * placeholder names become the keys `render` asks values for.
 *
 * @example
 * ```ts
 * const template = definePassTemplate({
 *   id: 1, name: 'Member', formatVersion: 1, passType: 'pass.com.example.member',
 *   description: { generic: { primaryFields: [{ key: 'name', value: '${name}' }] } },
 *   placeholder: ['name'],
 * });
 * compileTemplate(template).render({ name: 'Ada' }); // `{ nmae: 'Ada' }` would not compile
 * ```
 */
export function definePassTemplate<const TTemplate extends PassTemplate>(template: TTemplate): TTemplate {
  return template;
}
