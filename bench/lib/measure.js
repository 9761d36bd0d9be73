// Timing: interleaved batches, medians, paired ratios.
//
// Each case gets its own loop function (made with `new Function`, so V8 keeps
// separate type feedback per case and no case slows another by sharing a
// megamorphic call site). Cases run one batch each in turn, round after round,
// so machine noise on a shared 2-core box hits all of them alike; a ratio is
// the median over rounds of ratios taken inside the same round.

import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A full collection on demand (as `node --expose-gc` gives), to start samples from the same heap.
setFlagsFromString('--expose-gc');
/** @type {() => void} */
const collect = runInNewContext('gc');

/** @typedef {{ name: string, fn: () => unknown }} Case */
/** @typedef {{ name: string, median: number, samples: number[] }} Timing */

// Results are stored here so the engine cannot skip building them. One slot,
// emptied before each call: a result kept alive while the next one is built
// doubles what a young-generation collection copies, which charges large
// results (10,000 fields, 1 MB of scanned text) for the harness's garbage
// rather than their own — a cost that grows with the square of the size.
const sink = [undefined];

/** @param {() => unknown} fn */
function makeLoop(fn) {
  // A fresh function per case: its own feedback vector, its own inlining decisions.
  const loop = new Function('fn', 'sink', 'n', 'for (let i = 0; i < n; i++) { sink[0] = undefined; sink[0] = fn(); } return sink[0];');
  return (n) => loop(fn, sink, n);
}

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Measures cases side by side; returns nanoseconds per call (median) and the
 * per-round samples, keyed by name.
 *
 * @param {Case[]} cases
 * @param {{ rounds?: number, batchMs?: number, warmupMs?: number }} [options]
 * @returns {Map<string, Timing>}
 */
export function measure(cases, options = {}) {
  const { rounds = 15, batchMs = 8, warmupMs = 200 } = options;
  const loops = cases.map((entry) => ({ ...entry, loop: makeLoop(entry.fn), n: 1, samples: [] }));

  // Warm up (lets the optimizing compiler settle) and calibrate a batch size.
  for (const entry of loops) {
    const until = performance.now() + warmupMs;
    let n = 1;
    let elapsed = 0;
    while (performance.now() < until) {
      const start = performance.now();
      entry.loop(n);
      elapsed = performance.now() - start;
      if (elapsed < batchMs / 4) n *= 2;
    }
    entry.n = Math.max(1, Math.round((n * batchMs) / Math.max(elapsed, 1e-3)));
  }

  for (let round = 0; round < rounds; round++) {
    // Rotate the order so no case always runs right after the garbage of another.
    for (let offset = 0; offset < loops.length; offset++) {
      const entry = loops[(round + offset) % loops.length];
      const start = performance.now();
      entry.loop(entry.n);
      const elapsed = performance.now() - start;
      entry.samples.push((elapsed * 1e6) / entry.n);
    }
  }

  return new Map(loops.map((entry) => [entry.name, { name: entry.name, median: median(entry.samples), samples: entry.samples }]));
}

/**
 * Median over rounds of `a / b`, both measured in the same round.
 *
 * @param {Timing} a
 * @param {Timing} b
 */
export function pairedRatio(a, b) {
  return median(a.samples.map((value, index) => value / b.samples[index]));
}

/**
 * Times a slow operation (milliseconds per call): a few repetitions, median.
 *
 * @param {() => unknown} fn
 * @param {{ repeat?: number, minMs?: number }} [options]
 */
export function timeSlow(fn, options = {}) {
  const { repeat = 5, minMs = 20 } = options;
  fn(); // warm-up
  const samples = [];
  for (let index = 0; index < repeat; index++) {
    // Each sample starts from a collected heap: the garbage of the samples
    // before it (of this case or of the case timed before) is not charged to it.
    sink[0] = undefined;
    collect();
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      sink[0] = undefined;
      sink[0] = fn();
      calls++;
      elapsed = performance.now() - start;
    } while (elapsed < minMs);
    samples.push((elapsed * 1e6) / calls);
  }
  return { median: median(samples), samples };
}

/** The process's CPU time (every thread: user + system), in ms. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Interleaved async batches: every round runs one batch of each case, in a
 * rotating order, so a busy spell on a shared machine falls on every case
 * alike; returns ns per call (median) and per-round samples, by case name.
 *
 * `clock: 'cpu'` times each batch in the process's CPU time instead of wall
 * time: what the work costs, whatever else the machine runs meanwhile (on a
 * shared machine at a load of several times its cores, wall-clock ratios of
 * CPU-bound cases swing by ±50 %). Work on other threads of the process
 * (Web Crypto's thread pool, the collector's helpers) counts; waiting does not.
 *
 * @param {{ name: string, fn: () => unknown }[]} cases
 * @param {{ rounds?: number, batchMs?: number, warmupMs?: number, clock?: 'wall' | 'cpu' }} [options]
 * @returns {Promise<Map<string, { name: string, median: number, samples: number[] }>>}
 */
export async function measureAsync(cases, { rounds = 21, batchMs = 10, warmupMs = 300, clock = 'wall' } = {}) {
  const now = clock === 'cpu' ? cpuMs : () => performance.now();
  const entries = cases.map((entry) => ({ ...entry, n: 1, samples: [] }));
  const run = async (entry, n) => {
    for (let index = 0; index < n; index++) await entry.fn();
  };
  for (const entry of entries) {
    const until = performance.now() + warmupMs;
    while (performance.now() < until) {
      const start = performance.now();
      await run(entry, entry.n);
      if (performance.now() - start < batchMs) entry.n *= 2;
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (let offset = 0; offset < entries.length; offset++) {
      const entry = entries[(round + offset) % entries.length];
      const start = now();
      await run(entry, entry.n);
      entry.samples.push(((now() - start) * 1e6) / entry.n);
    }
  }
  return new Map(entries.map((entry) => [entry.name, { name: entry.name, median: median(entry.samples), samples: entry.samples }]));
}
