import { checkFlag } from './check-option.js';
import { checkUrl } from './post.js';

/**
 * Checks a webhook URL when a customer registers it, without any network
 * call: throws `WebhookError` `invalid-url` (not absolute http(s), or with a
 * user name or password) or `private-address` (a private, loopback,
 * link-local or multicast IP literal in any spelling — `2130706433`,
 * `0x7f.1`, `[::ffff:127.0.0.1]` — or `localhost`), and returns the URL as
 * `deliver` will use it. What a host *name* resolves to is checked at each
 * delivery, in Node, on the address actually connected to.
 *
 * @example
 * ```ts
 * checkWebhookUrl('https://hooks.example.com/in'); // 'https://hooks.example.com/in'
 * checkWebhookUrl('http://169.254.169.254/latest/meta-data'); // throws WebhookError, code 'private-address'
 * checkWebhookUrl('http://127.0.0.1:3000/hooks', { allowPrivateNetworks: true }); // 'http://127.0.0.1:3000/hooks'
 * ```
 */
export function checkWebhookUrl(url: string | URL, options: { readonly allowPrivateNetworks?: boolean } = {}): string {
  return checkUrl(url, checkFlag('allowPrivateNetworks', options.allowPrivateNetworks) ?? false).href;
}
