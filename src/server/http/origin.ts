/**
 * The origin the service is reached at, without a trailing slash: the public
 * URL when one is configured, otherwise the request's own origin. Links,
 * `Location` and a pass's `webServiceURL` are built from it.
 *
 * @example
 * ```ts
 * originOf('https://passes.example.com/', request); // 'https://passes.example.com'
 * originOf(undefined, new Request('http://127.0.0.1:8080/v1/passes')); // 'http://127.0.0.1:8080'
 * ```
 */
export function originOf(publicUrl: string | undefined, request: Request): string {
  return (publicUrl ?? new URL(request.url).origin).replace(/\/+$/, '');
}
