// The single place that picks a transport: `#guarded-fetch` resolves through
// package.json "imports" (node → node.ts/js, default → web.ts/js).
export { checksResolvedAddresses, guardedFetch } from '#guarded-fetch';
