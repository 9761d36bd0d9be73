import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { writePlaygroundFigures, writeRequested } from '../../scripts/results-part.js';

/** Options of {@link sizeReport}. */
export interface SizeReportOptions {
  /** Gzipped size allowed for the JavaScript a first visit loads. */
  initialBudgetKb: number;
  /** Packages (by name) or source files (a path fragment starting with `/`) that must only ever be in lazily loaded chunks. */
  lazyOnly: readonly string[];
}

interface ChunkRow {
  file: string;
  name: string;
  bytes: number;
  gzip: number;
  initial: boolean;
}

/**
 * Prints the gzipped size of the initial JavaScript (entry chunks and what they
 * import statically) and of every lazily loaded chunk, and fails the build when
 * the initial JavaScript is over budget or pulls in a package meant to be lazy.
 *
 * @example
 * ```ts
 * export default defineConfig({ plugins: [sizeReport({ initialBudgetKb: 150, lazyOnly: ['bwip-js'] })] });
 * ```
 */
export function sizeReport(options: SizeReportOptions): Plugin {
  return {
    name: 'passmint-size-report',
    apply: 'build',
    generateBundle(_output, bundle) {
      const chunks = new Map<string, { name: string; code: string; imports: string[]; isEntry: boolean; modules: string[] }>();
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        chunks.set(item.fileName, {
          name: item.name,
          code: item.code,
          imports: item.imports,
          isEntry: item.isEntry,
          modules: Object.keys(item.modules),
        });
      }
      const initial = new Set<string>();
      const visit = (file: string): void => {
        if (initial.has(file)) return;
        initial.add(file);
        for (const next of chunks.get(file)?.imports ?? []) visit(next);
      };
      for (const [file, chunk] of chunks) if (chunk.isEntry) visit(file);

      const rows: ChunkRow[] = [...chunks].map(([file, chunk]) => ({
        file,
        name: chunk.name,
        bytes: Buffer.byteLength(chunk.code),
        gzip: gzipSync(chunk.code, { level: 9 }).length,
        initial: initial.has(file),
      }));
      rows.sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);
      const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
      const initialGzip = rows.filter((row) => row.initial).reduce((sum, row) => sum + row.gzip, 0);
      const lines = [
        '',
        'playground bundle (gzip -9):',
        ...rows.map((row) => `  ${row.initial ? 'initial' : 'lazy   '}  ${kb(row.gzip).padStart(10)}  ${kb(row.bytes).padStart(10)} raw  ${row.file}`),
        `  initial JavaScript: ${kb(initialGzip)} gzipped (budget ${options.initialBudgetKb} KB)`,
        '',
      ];
      // Vite's own logger respects --logLevel, so a silent build (the e2e run) stays silent.
      if (this.environment.config.logLevel !== 'silent') process.stdout.write(`${lines.join('\n')}\n`);

      const leaked = [...initial].flatMap((file) =>
        options.lazyOnly.filter((pkg) => chunks.get(file)?.modules.some((id) => id.includes(pkg.startsWith('/') ? pkg : `/node_modules/${pkg}/`))),
      );
      if (leaked.length > 0) this.error(`${leaked.join(', ')} must only be loaded lazily, but is in the initial JavaScript`);
      if (initialGzip > options.initialBudgetKb * 1024) {
        this.error(`initial JavaScript is ${kb(initialGzip)} gzipped, over the ${options.initialBudgetKb} KB budget`);
      }
      // PASSMINT_WRITE_FIGURES=1: the sizes go to bench/results.json, and from there to docs/playground.md.
      if (writeRequested) {
        const stored = rows.map(({ name, initial, gzip, bytes }) => ({ name, initial, gzip, bytes }));
        writePlaygroundFigures('bundle', {
          command: 'npm run build:playground',
          date: new Date().toISOString(),
          budgetKb: options.initialBudgetKb,
          initialGzip,
          chunks: stored,
        });
      }
    },
  };
}
