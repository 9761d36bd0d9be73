/** Whether this run was asked to write its figures (PASSMINT_WRITE_FIGURES=1). */
export declare const writeRequested: boolean;
/** Stores `value` as `playground[part]` of bench/results.json (read-modify-write) and regenerates the docs figures; returns the docs files rewritten. */
export declare function writePlaygroundFigures(part: 'bundle' | 'latency', value: object): string[];
/** `results` with `playground[part]` set to `value`; every other part and key as it was. */
export declare function withPlaygroundPart<T extends object>(
  results: T,
  part: 'bundle' | 'latency',
  value: object,
): T & { playground: Record<string, unknown> };
