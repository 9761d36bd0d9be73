// The single place that picks an implementation: `#sha256` resolves through
// package.json "imports" (node → node.ts/js, default → web.ts/js).
export { sha256 } from '#sha256';
