/**
 * The Stores view's colours, from the Okabe–Ito palette (viz/palette.ts) so they stay apart for
 * colour-blind readers. Each store keeps one colour and one line style (solid, dashed, dotted …)
 * everywhere: its card's edge, its column in the table, its lines in the charts; the chart's
 * legend and the table name it too, so colour is never the only cue. Inside a structure,
 * stored data is sky blue, background work (a merge, a compaction, a conversion) orange and dashed,
 * dead bytes grey.
 */

export interface StoreStyle {
  colour: string;
  /** The chart line's dash pattern ([] solid). */
  dash: number[];
  /** The dash in words, for the legend's text. */
  line: string;
}

const STYLES: Record<string, StoreStyle> = {
  cona: { colour: '#0072B2', dash: [], line: 'solid' },
  'cona-1t': { colour: '#56B4E9', dash: [7, 3], line: 'dashed' },
  silt: { colour: '#D55E00', dash: [2, 2], line: 'dotted' },
  lsm: { colour: '#009E73', dash: [9, 3, 2, 3], line: 'dash-dot' },
  fawnds: { colour: '#CC79A7', dash: [4, 4], line: 'short dashes' },
  btree: { colour: '#000000', dash: [12, 4], line: 'long dashes' },
};

const OTHERS: StoreStyle[] = [
  { colour: '#E69F00', dash: [1, 3], line: 'sparse dots' },
  { colour: '#6b7280', dash: [6, 2, 1, 2], line: 'dash-dot-dot' },
];

/** A store's style by kind (a kind this page does not know gets one of the spare styles, by its name). */
export function storeStyle(kind: string): StoreStyle {
  const own = STYLES[kind];
  if (own) return own;
  let h = 0;
  for (const ch of kind) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return OTHERS[h % OTHERS.length]!;
}

export const ST = {
  /** Stored entries or bytes (light, so the labels over it read). */
  data: '#56B4E9',
  /** Background work: a merge, a compaction, a conversion, a shadow being written. */
  work: '#E69F00',
  /** Over a target (an LSM level past its size). */
  over: '#D55E00',
  /** Dead bytes (FAWN-DS garbage). */
  garbage: '#8b949e',
  /** Dirty pages in the B+tree's pool. */
  dirty: '#CC79A7',
  empty: '#eef1f4',
  track: '#f6f8fa',
  edge: '#8b949e',
  axis: '#6b7280',
  ink: '#1f2328',
} as const;
