/** bench/results.json as the docs tables read it. */
export interface BenchResults {
  readonly command: string;
  readonly date: string;
  readonly environment: string;
  readonly rows: readonly {
    readonly name: string;
    readonly ours: string;
    readonly baseline: string;
    readonly ratio: number | null;
    readonly target: string;
    readonly result: string;
  }[];
  readonly load?: unknown;
  /** The playground's build sizes and keystroke latency (`npm run figures:playground`). */
  readonly playground?: unknown;
}
/** The generated text of one `<!-- figures:NAME -->` block. */
export declare function renderFigures(results: BenchResults, name: string): string;
/** The document with every figures block rewritten from the results. */
export declare function updateDocument(text: string, results: BenchResults): string;
/** bench/results.json and the docs/*.md files of this repository. */
export declare function readSources(): { readonly results: BenchResults; readonly docs: readonly { readonly path: string; readonly name: string }[] };
/** Rewrites (with `check`, only lists) the docs files whose tables differ from bench/results.json. */
export declare function writeFigures(options?: { readonly check?: boolean }): string[];
