/** Returns the source of src/schema/validators.js and validators.d.ts as the schemas on disk compile now. */
export declare function generateValidatorsSource(): { js: string; dts: string };
