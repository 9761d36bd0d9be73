/**
 * Header that carries `sha1=<hex>`.
 *
 * @example
 * ```ts
 * request.headers.get(SIGNATURE_HEADER); // 'sha1=…'
 * ```
 */
export const SIGNATURE_HEADER = 'X-Service-Signature';
/**
 * Header whose value is `event` on every delivery.
 *
 * @example
 * ```ts
 * request.headers.get(SERVICE_HEADER); // 'event'
 * ```
 */
export const SERVICE_HEADER = 'X-Service';
