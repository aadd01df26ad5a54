/** Number formatting for axes, tooltips and tables: short, unit-aware, locale-independent. */

/** Short-scale suffixes, largest first, each with the magnitude from which it is used. */
const SUFFIXES: Array<[number, number, string]> = [[1e12, 1e12, 'T'], [1e9, 1e9, 'B'], [1e6, 1e6, 'M'], [1e3, 1e4, 'k']];

/**
 * 3 significant digits, a short-scale suffix for large values (k from 10,000, M, B for
 * billion, T for trillion, so counts and money read "1B queries/s", "$2B"): 12345 -> "12.3k",
 * 1234 -> "1234", 0.000123 -> "0.000123". The suffix is chosen after rounding (999,999 -> "1M").
 */
export function fmt(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  const rounded = Math.abs(Number(v.toPrecision(digits)));
  for (const [unit, from, suffix] of SUFFIXES) {
    if (rounded < from) continue;
    const n = v / unit;
    return trim(n.toPrecision(Math.max(digits, Math.floor(Math.log10(Math.abs(n))) + 1))) + suffix;
  }
  if (a === 0) return '0';
  if (a >= 1) return trim(v.toPrecision(Math.max(digits, Math.floor(Math.log10(a)) + 1)));
  return trim(v.toPrecision(digits));
}

/**
 * An axis's tick labels, by `fmt`, with one style of suffix along the axis: when a tick reads
 * in thousands ("10k"), so do the round ticks from 1,000 ("1k", "2k", "5k" rather than "1000" …);
 * ticks that would lose digits (1024, 4096) keep them.
 */
export function fmtTicks(values: number[]): string[] {
  const labels = values.map((v) => fmt(v));
  if (!labels.some((l) => l.endsWith('k'))) return labels;
  return values.map((v, i) => {
    const k = trim((v / 1e3).toPrecision(3));
    return Math.abs(v) >= 1e3 && Math.abs(v) < 1e4 && Number(k) * 1e3 === v ? `${k}k` : labels[i]!;
  });
}

function trim(s: string): string {
  return s.includes('e') ? s : s.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** Percent deviation of `v` from `ref`: "+1.2%". */
export function deviation(v: number, ref: number): string {
  if (ref === 0) return v === 0 ? '0' : `${v > 0 ? '+' : ''}${fmt(v)}`;
  const d = ((v - ref) / Math.abs(ref)) * 100;
  return `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(Math.abs(d) < 10 ? 2 : 1)}%`;
}

/** Virtual time in ns as a readable span: 1500 -> "1.5 µs". */
export function fmtNs(ns: number): string {
  const a = Math.abs(ns);
  if (a >= 1e9) return `${fmt(ns / 1e9)} s`;
  if (a >= 1e6) return `${fmt(ns / 1e6)} ms`;
  if (a >= 1e3) return `${fmt(ns / 1e3)} µs`;
  return `${fmt(ns)} ns`;
}

/** "512 B", "20 KB", "1.5 MB" (KB = 1024 bytes). */
export function fmtBytes(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  const t = (x: number) => String(Math.round(x * 100) / 100);
  if (a < 1024) return `${t(v)} B`;
  if (a < 1024 * 1024) return `${t(v / 1024)} KB`;
  if (a < 1024 ** 3) return `${t(v / 1024 ** 2)} MB`;
  return `${t(v / 1024 ** 3)} GB`;
}
