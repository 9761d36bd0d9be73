// Which folder may import which (docs/development.md, "How the code is laid out").
// `npx depcruise src playground` checks them; `npm run lint` runs it.
//
// src/server's rooms import only downward:
//   http/  →  db/  →  queue/, build/  →  google/, wallet/  →  routes/  →  console/  →  the top-level files
// (a room may import any room to its left, never one to its right or beside it).

/** A room of src/server and the rooms it may import besides itself. */
const ROOMS = {
  http: [],
  db: ['http'],
  queue: ['db', 'http'],
  build: ['db', 'http'],
  google: ['queue', 'build', 'db', 'http'],
  wallet: ['queue', 'build', 'db', 'http'],
  routes: ['google', 'wallet', 'queue', 'build', 'db', 'http'],
  console: ['routes', 'google', 'wallet', 'queue', 'build', 'db', 'http'],
};

/** The files of src/ other folders may import: the package's entry points and each module's index.ts. */
const PUBLIC_ENTRY = '^src/(index|[^/]+/index)\\.ts$';

/**
 * Library internals the command shares and no user needs, so no entry point exports them:
 * the DER reader and X.509 parts its certificate tools (cert, pack's certificate line,
 * PKCS #12 reading) use, and the "did you mean" of its usage errors.
 */
const CLI_SHARED_INTERNALS = ['^src/pkpass/asn1/index\\.ts$', '^src/pkpass/x509/(certificate|name)\\.ts$', '^src/pkpass/oids\\.ts$', '^src/suggest\\.ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A loop of imports (type-only ones too): the files in it cannot be read, tested or moved one at a time.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'library-not-to-service',
      severity: 'error',
      comment: 'The library (src/ outside server/ and cli/) runs in every runtime and knows nothing of the service or the command.',
      from: { path: '^src/', pathNot: '^src/(server|cli)/' },
      to: { path: '^src/(server|cli)/' },
    },
    ...Object.entries(ROOMS).map(([room, below]) => ({
      name: `server-${room}-imports-down`,
      severity: 'error',
      comment: `src/server/${room}/ may import ${below.length > 0 ? below.map((name) => `${name}/`).join(', ') : 'no other room'}, not a room above or beside it, nor a top-level file of src/server.`,
      from: { path: `^src/server/${room}/` },
      to: { path: '^src/server/', pathNot: `^src/server/(${[room, ...below].join('|')})/` },
    })),
    {
      name: 'server-top-level-imported-from-top',
      severity: 'error',
      comment: 'The top-level files of src/server sit above every room: only index.ts, create-server.ts and handler.ts import them.',
      from: { path: '^src/server/', pathNot: '^src/server/(index|create-server|handler)\\.ts$' },
      to: { path: '^src/server/[^/]+\\.ts$' },
    },
    {
      name: 'cli-through-entry-points',
      severity: 'error',
      comment: 'The command uses the library and the service as a user would: through src/index.ts, src/<module>/index.ts and src/server/index.ts.',
      from: { path: '^src/cli/' },
      to: { path: '^src/', pathNot: [PUBLIC_ENTRY, '^src/cli/', ...CLI_SHARED_INTERNALS] },
    },
    {
      name: 'playground-through-entry-points',
      severity: 'error',
      comment: 'The playground uses the library as a user would: through src/index.ts and src/<module>/index.ts.',
      from: { path: '^playground/' },
      to: { path: '^src/', pathNot: PUBLIC_ENTRY },
    },
    {
      name: 'console-through-entry-points',
      severity: 'error',
      comment: 'The console uses the library as a user would (src/index.ts and src/<module>/index.ts) and shares the playground\'s components.',
      from: { path: '^console/' },
      to: { path: '^src/', pathNot: PUBLIC_ENTRY },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import of a file or package that is not there.',
      from: {},
      // #hmac, #sha256, … are the runtime-selected modules of src/package.json's "imports".
      to: { couldNotResolve: true, pathNot: '^#' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|playground-dist|node_modules)/' },
    tsPreCompilationDeps: true,
    moduleSystems: ['es6'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
