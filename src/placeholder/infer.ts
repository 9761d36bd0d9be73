/**
 * The placeholder names written in a string literal type, as a union.
 *
 * @example
 * ```ts
 * type Names = PlaceholderNamesIn<'Row ${seat}, gate ${gate}'>; // 'seat' | 'gate'
 * ```
 */
export type PlaceholderNamesIn<TText extends string> = TText extends `${string}$\{${infer TName}}${infer TRest}`
  ? (TName extends `${string}${'$' | '{'}${string}` | '' ? never : TName) | PlaceholderNamesIn<TRest>
  : never;

/**
 * Every placeholder name used in the strings of a (`const`) template body.
 *
 * @example
 * ```ts
 * type Used = UsedPlaceholders<{ logoText: '${event}'; generic: { primaryFields: [{ key: 'k'; value: 'Row ${seat}' }] } }>;
 * // 'event' | 'seat'
 * ```
 */
export type UsedPlaceholders<TBody> = TBody extends string
  ? PlaceholderNamesIn<TBody>
  : TBody extends readonly unknown[]
    ? UsedPlaceholders<TBody[number]>
    : TBody extends object
      ? { [K in keyof TBody]: UsedPlaceholders<TBody[K]> }[keyof TBody]
      : never;
