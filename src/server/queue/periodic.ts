/**
 * A round of work run again and again: `start` schedules the first round
 * `firstMs` later, each round's end schedules the next `intervalMs` after it
 * (rounds never overlap), `stop` cancels the next and waits for the one
 * under way.
 *
 * @example
 * ```ts
 * const loop = createPeriodic(() => retention.runOnce(), { firstMs: 60_000, intervalMs: 3_600_000, onError: console.error });
 * loop.start();
 * await loop.stop();
 * ```
 */
export interface Periodic {
  start(): void;
  stop(): Promise<void>;
  /** True from `stop` until the next `start` (never before the first): a long round checks it between its steps to end early. */
  readonly halted: boolean;
}

/** Options of {@link createPeriodic}. */
export interface PeriodicOptions {
  /** Time from `start` to the first round, in ms. */
  readonly firstMs: number;
  /** Time from a round's end to the next one's start, in ms. */
  readonly intervalMs: number;
  /** Told of a round that failed (the next one runs all the same). */
  readonly onError: (error: unknown) => void;
}

/** Makes the loop of {@link Periodic} around `round`; its timer keeps no process alive. */
export function createPeriodic(round: () => Promise<unknown>, options: PeriodicOptions): Periodic {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let halted = false;
  const schedule = (ms: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round()
        .catch(options.onError)
        .finally(() => schedule(options.intervalMs));
    }, ms);
    timer.unref?.();
  };
  return {
    start() {
      if (!stopped) return;
      stopped = false;
      halted = false;
      schedule(options.firstMs);
    },
    async stop() {
      stopped = true;
      halted = true;
      clearTimeout(timer);
      await running;
    },
    get halted() {
      return halted;
    },
  };
}
