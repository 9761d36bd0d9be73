// Which rows of bench/results.json each section of `npm run bench` writes,
// by the start of their names: what `node bench/run.js <section> --write`
// replaces, and what the docs tables (scripts/docs-figures.js) select.

/** Section name → the rows it writes, in the order a full run writes the sections. */
export const SECTIONS = {
  render: /^(render|buildPass)/,
  scaling: /^scaling:/,
  scan: /^scan /,
  hostile: /^hostile:/,
  webhooks: /^webhooks:/,
  wallet: /^(wallet|apns):/,
  pkpass: /^(pkpass:|size: (packPass|verifyPass))/,
  server: /^server:/,
  service: /^service:/,
  scale: /^scale:/,
  import: /^import:/,
  publish: /^publish:/,
  sizes: /^size: (import|whole)/,
};

/** The section a row belongs to, or `undefined`. */
export function sectionOf(name) {
  return Object.keys(SECTIONS).find((section) => SECTIONS[section].test(name));
}

/**
 * The rows of `previous` with those of the sections in `ran` replaced by
 * `fresh`, in section order (rows of no section stay at the end).
 */
export function mergeRows(previous, fresh, ran) {
  const out = [];
  for (const section of Object.keys(SECTIONS)) {
    const source = ran.includes(section) ? fresh : previous;
    out.push(...source.filter((row) => sectionOf(row.name) === section));
  }
  out.push(...previous.filter((row) => sectionOf(row.name) === undefined));
  return out;
}

/** A measured row as bench/results.json stores it (the ratio to three places, the result as a word). */
export function storedRow({ name, ours, baseline, oursValue, baselineValue, ratio, target, pass }) {
  return { name, ours, baseline, oursValue, baselineValue, ratio: Number(ratio.toFixed(3)), target, result: pass === null ? 'info' : pass ? 'PASS' : 'FAIL' };
}
