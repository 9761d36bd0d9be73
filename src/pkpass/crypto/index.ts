// The single place that picks an implementation: `#pkcrypto` resolves through
// package.json "imports" (node → node.ts/js, default → web.ts/js).
export { digest, importRsaSigningKey, rsaVerify } from '#pkcrypto';
