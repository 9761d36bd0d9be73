/**
 * An optional package the chosen database needs is not installed: `pg` for
 * PostgreSQL (DATABASE_URL), `@electric-sql/pglite` for a data folder. Not a
 * database fault: installing the package is the fix.
 *
 * @example
 * ```ts
 * try {
 *   await openPostgres({ connectionString });
 * } catch (error) {
 *   if (error instanceof MissingPackageError) console.error(`npm install ${error.packageName}`);
 * }
 * ```
 */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';
  readonly code = 'missing-package';
  /** The package to install, as npm names it. */
  readonly packageName: string;

  constructor(packageName: string, options?: ErrorOptions) {
    super(`passmint/server needs the package "${packageName}": npm install ${packageName}`, options);
    this.packageName = packageName;
  }
}
