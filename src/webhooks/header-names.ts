/** Header that carries `sha1=<hex>`. */
export const SIGNATURE_HEADER = 'X-Service-Signature';
/** Header whose value is `event` on every delivery. */
export const SERVICE_HEADER = 'X-Service';
