import type { UsedPlaceholders } from '../placeholder/infer.js';
import type { PassTemplate } from '../types.js';

/** Names a template's body uses but its `placeholder` array does not declare. */
export type UndeclaredPlaceholders<TTemplate extends PassTemplate> = Exclude<UsedPlaceholders<TTemplate['description']>, TTemplate['placeholder'][number]>;

/** Makes `definePassTemplate` reject, at compile time, a literal that uses undeclared names. */
export type DeclaredOnly<TTemplate extends PassTemplate> = [UndeclaredPlaceholders<TTemplate>] extends [never]
  ? unknown
  : { readonly undeclaredPlaceholders: UndeclaredPlaceholders<TTemplate> };

/**
 * Returns the template unchanged, typed as the literal it is: its declared
 * placeholder names become the keys `render` asks values for, and a name used
 * in `description` but missing from `placeholder` is a compile-time error.
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
export function definePassTemplate<const TTemplate extends PassTemplate>(template: TTemplate & DeclaredOnly<TTemplate>): TTemplate {
  return template;
}
