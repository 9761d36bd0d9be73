// The single place that picks an implementation: `#hmac` resolves through
// package.json "imports" (node → node.ts/js, default → web.ts/js).
export { signHex, verifyDigest } from '#hmac';
