import { GoogleWalletError } from './error.js';

const KEPT = /[A-Za-z0-9-]/;
const SUFFIX = /^[A-Za-z0-9._-]+$/;
const encoder = new TextEncoder();

/**
 * One id part in the characters Google allows (letters, digits, `.`, `_`, `-`),
 * one-to-one: letters, digits and `-` stay, every other UTF-8 byte becomes
 * `_` and two hex digits. The result never holds a `.`, so parts joined with
 * `.` can never collide.
 *
 * @example
 * ```ts
 * escapeIdPart('pass.com.example'); // 'pass_2ecom_2eexample'
 * ```
 */
export function escapeIdPart(text: string): string {
  let out = '';
  for (const char of text) {
    if (KEPT.test(char)) out += char;
    else for (const byte of encoder.encode(char)) out += `_${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** Throws unless the issuer id is Google's: digits only. */
export function checkIssuerId(issuerId: string): void {
  if (!/^[0-9]{1,32}$/.test(issuerId))
    throw new GoogleWalletError(
      'invalid-issuer-id',
      `The issuer id must be the digits the Google Pay & Wallet Console shows, not ${JSON.stringify(issuerId.slice(0, 40))}.`,
    );
}

/**
 * The class id `<issuerId>.<suffix>`: the given suffix (checked), or the escaped pass type identifier.
 *
 * @example
 * ```ts
 * classIdOf('3388000000012345678', 'pass.com.example'); // '3388000000012345678.pass_2ecom_2eexample'
 * ```
 */
export function classIdOf(issuerId: string, passTypeIdentifier: string, classSuffix?: string): string {
  if (classSuffix === undefined) return `${issuerId}.${escapeIdPart(passTypeIdentifier)}`;
  if (!SUFFIX.test(classSuffix))
    throw new GoogleWalletError(
      'invalid-argument',
      `A class suffix holds only letters, digits, ".", "_" and "-": ${JSON.stringify(classSuffix.slice(0, 40))}.`,
    );
  return `${issuerId}.${classSuffix}`;
}

/**
 * The object id `<issuerId>.<escaped pass type>.<escaped serial>`: stable, and distinct for distinct passes.
 *
 * @example
 * ```ts
 * objectIdOf('3388000000012345678', 'pass.com.example', 'A-1'); // '3388000000012345678.pass_2ecom_2eexample.A-1'
 * ```
 */
export function objectIdOf(issuerId: string, passTypeIdentifier: string, serialNumber: string): string {
  return `${issuerId}.${escapeIdPart(passTypeIdentifier)}.${escapeIdPart(serialNumber)}`;
}
