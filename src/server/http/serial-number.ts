import { ServiceProblem } from '../../http/problem.js';

/** Most characters of a serial number given at creation. */
export const MAX_SERIAL = 256;

/**
 * Why a serial number given at creation cannot be one (the 422 problem a
 * create answers), or `undefined` when it can (or none was given): a string
 * of 1 to 256 characters, without control characters or a lone surrogate
 * (which has no UTF-8: stored, it became U+FFFD, and the serial changed at
 * the first update). "." and ".." are the pass builder's to refuse.
 *
 * @example
 * ```ts
 * const problem = serialNumberProblem(body['serialNumber']);
 * if (problem !== undefined) throw problem;
 * ```
 */
export function serialNumberProblem(serialNumber: unknown): ServiceProblem | undefined {
  if (serialNumber === undefined) return undefined;
  if (typeof serialNumber !== 'string' || serialNumber.length === 0 || serialNumber.length > MAX_SERIAL || /[\u0000-\u001f\u007f]/.test(serialNumber)) {
    return new ServiceProblem(422, 'invalid-body', `"serialNumber" is a string of 1 to ${MAX_SERIAL} characters without control characters.`);
  }
  if (/\p{Cs}/u.test(serialNumber)) {
    const message = '"serialNumber" has a lone surrogate (half of a UTF-16 pair), which no URL or database can keep';
    return new ServiceProblem(422, 'invalid-body', `${message}.`, {
      issues: [{ severity: 'error', code: 'unsafe-serial-number', message, path: '/serialNumber' }],
    });
  }
  return undefined;
}
