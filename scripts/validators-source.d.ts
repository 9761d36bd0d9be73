/** Files the generator writes into src/schema/ (and the build copies into dist/schema/). */
export declare const generatedFiles: readonly string[];
/** Returns the source of every generated file as the schemas on disk compile now, by file name. */
export declare function generateValidatorsSource(): { readonly [file: string]: string };
