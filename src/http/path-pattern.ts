/** The names of a path's parameters: `{name}` for one segment, a final `{name+}` for one or more. */
type ParamNames<TPath extends string> = TPath extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends `${infer Base}+` ? Base : Name) | ParamNames<Rest>
  : never;

/**
 * The parameters of a path pattern, read from its text at the type level:
 * `'/v1/passes/{type}/{serial}'` gives `{ readonly type: string; readonly serial: string }`,
 * and a final `{path+}` (the rest of the path, slashes kept) gives `path`.
 *
 * @example
 * ```ts
 * const params: PathParams<'/v1/templates/{id}/files/{path+}'> = { id: '7', path: 'en.lproj/logo.png' };
 * ```
 */
export type PathParams<TPath extends string> = { readonly [TName in ParamNames<TPath>]: string };

/** One segment of a compiled pattern. */
type PathPart =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'rest'; readonly name: string };

/**
 * A path pattern ready to match: its text, the same text as OpenAPI writes it
 * (`{path+}` as `{path}`), and its segments.
 *
 * @example
 * ```ts
 * const pattern: PathPattern<'/v1/passes/{type}/{serial}'> = compilePath('/v1/passes/{type}/{serial}');
 * pattern.template; // '/v1/passes/{type}/{serial}'
 * ```
 */
export interface PathPattern<TPath extends string = string> {
  readonly path: TPath;
  /** The pattern as OpenAPI, logs and metrics write it: every parameter `{name}`. */
  readonly template: string;
  /** The parameter names in order. */
  readonly names: readonly string[];
  readonly parts: readonly PathPart[];
}

const PARAM = /^\{([A-Za-z][A-Za-z0-9]*)(\+?)\}$/;

/**
 * Compiles a path pattern: literal segments, `{name}` for one non-empty
 * segment, and a final `{name+}` for the rest of the path (one or more
 * non-empty segments).
 *
 * @throws {TypeError} for a pattern that does not start with `/`, a `{name+}`
 * that is not last, a malformed or repeated parameter.
 *
 * @example
 * ```ts
 * const files = compilePath('/v1/templates/{id}/files/{path+}');
 * matchPath(files, '/v1/templates/7/files/en.lproj/logo.png'.split('/')); // { id: '7', path: 'en.lproj/logo.png' }
 * ```
 */
export function compilePath<const TPath extends string>(path: TPath): PathPattern<TPath> {
  if (!path.startsWith('/')) throw new TypeError(`compilePath: ${JSON.stringify(path)} does not start with "/"`);
  const segments = path.split('/');
  const names: string[] = [];
  const parts = segments.map((segment, index): PathPart => {
    if (!segment.includes('{') && !segment.includes('}')) return { kind: 'literal', text: segment };
    const match = PARAM.exec(segment);
    if (match === null)
      throw new TypeError(`compilePath: ${JSON.stringify(segment)} in ${JSON.stringify(path)} is not a parameter ({name} or a final {name+})`);
    const name = match[1]!;
    if (names.includes(name)) throw new TypeError(`compilePath: the parameter ${name} appears twice in ${JSON.stringify(path)}`);
    names.push(name);
    if (match[2] === '') return { kind: 'param', name };
    if (index !== segments.length - 1) throw new TypeError(`compilePath: {${name}+} must be the last segment of ${JSON.stringify(path)}`);
    return { kind: 'rest', name };
  });
  return { path, template: path.replace(/\{([A-Za-z0-9]+)\+\}/, '{$1}'), names, parts };
}

/**
 * Matches a path, split at `/`, against a pattern: the parameters still
 * percent-encoded (a `{name+}` parameter's segments joined with `/`), or
 * `undefined`. Literal segments compare as they are; a parameter is never
 * empty and never holds a raw `/` (except a `{name+}`, between its segments).
 *
 * @example
 * ```ts
 * matchPath(compilePath('/v1/templates/{id}'), '/v1/templates/7'.split('/')); // { id: '7' }
 * matchPath(compilePath('/v1/templates/{id}'), '/v1/templates/'.split('/')); // undefined
 * ```
 */
export function matchPath<TPath extends string>(pattern: PathPattern<TPath>, segments: readonly string[]): PathParams<TPath> | undefined {
  const { parts } = pattern;
  const params: Record<string, string> = {};
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const segment = segments[index];
    if (segment === undefined) return undefined;
    if (part.kind === 'literal') {
      if (part.text !== segment) return undefined;
    } else if (part.kind === 'param') {
      if (segment === '') return undefined;
      params[part.name] = segment;
    } else {
      const rest = segments.slice(index);
      if (rest.some((piece) => piece === '')) return undefined;
      params[part.name] = rest.join('/');
      return params as PathParams<TPath>;
    }
  }
  // The names are the pattern's own: the object is what PathParams<TPath> reads from its text.
  return segments.length === parts.length ? (params as PathParams<TPath>) : undefined;
}
