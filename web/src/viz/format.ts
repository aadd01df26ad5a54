/** Number formatting for axes, tooltips and tables: short, unit-aware, locale-independent. */

/** 3 significant digits, SI suffix for large values: 1234 -> "1.23k", 0.000123 -> "0.000123". */
export function fmt(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a >= 1e9) return trim((v / 1e9).toPrecision(digits)) + 'G';
  if (a >= 1e6) return trim((v / 1e6).toPrecision(digits)) + 'M';
  if (a >= 1e4) return trim((v / 1e3).toPrecision(digits)) + 'k';
  if (a === 0) return '0';
  if (a >= 1) return trim(v.toPrecision(Math.max(digits, Math.floor(Math.log10(a)) + 1)));
  return trim(v.toPrecision(digits));
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
