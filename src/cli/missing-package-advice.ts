import type { MissingPackageError } from '../server/index.js';

/**
 * What to tell an operator whose database needs a package that is not
 * installed: which one, how to install it, and the way around it.
 *
 * @example
 * ```ts
 * missingPackageAdvice(new MissingPackageError('pg'));
 * // 'PostgreSQL (DATABASE_URL or --database-url) needs the package "pg", which is not installed: run npm install pg (or leave DATABASE_URL unset to use a PGlite data folder)'
 * ```
 */
export function missingPackageAdvice(error: MissingPackageError): string {
  const install = `which is not installed: run npm install ${error.packageName}`;
  return error.packageName === 'pg'
    ? `PostgreSQL (DATABASE_URL or --database-url) needs the package "pg", ${install} (or leave DATABASE_URL unset to use a PGlite data folder)`
    : `the data folder needs the package "${error.packageName}", ${install}`;
}
