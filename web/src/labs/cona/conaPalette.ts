/**
 * The CONA view's colours, from the Okabe–Ito palette (viz/palette.ts) so they stay apart for
 * colour-blind readers; every mark is also told apart by its form (a shadow is dashed, a
 * waiting buffer dashed and labelled, lookup markers numbered) and named in text beside it.
 */
export const CONA = {
  /** A visible cell's entries. */
  cell: '#0072B2',
  /** A visible cell already merged into a shadow below (dropped at the next flip). */
  consumed: '#7fb2d6',
  /** A buffer's fill (light, so its key ticks read on it). */
  buffer: '#56B4E9',
  bufferTick: '#1f2328',
  /** A shadow's merged entries, and the merge arrow. */
  shadow: '#E69F00',
  /** A frozen buffer that waits for a level-1 slot. */
  waiting: '#D55E00',
  /** A level that just flipped (its shadow made visible). */
  flip: '#009E73',
  /** The lookup path. */
  path: '#CC79A7',
  empty: '#d0d7de',
  track: '#f6f8fa',
  axis: '#6b7280',
  ink: '#1f2328',
} as const;

/** A lookup step's marker: fill and text colour, and what it means. */
export interface StepStyle {
  fill: string;
  ink: string;
  stroke: string;
  label: string;
}

export const STEP_STYLES = {
  /** Not here without a flash read: a buffer's binary search missed, or a fragment mismatch skipped the cell. */
  passed: { fill: '#ffffff', ink: '#1f2328', stroke: '#6b7280', label: 'passed: no flash read' },
  found: { fill: '#009E73', ink: '#ffffff', stroke: '#ffffff', label: 'found' },
  falsePositive: { fill: '#D55E00', ink: '#ffffff', stroke: '#ffffff', label: 'flash read, another key (false positive)' },
  readMiss: { fill: '#000000', ink: '#ffffff', stroke: '#ffffff', label: 'flash read, not here' },
  deleted: { fill: '#F0E442', ink: '#000000', stroke: '#1f2328', label: 'found a delete marker' },
} as const satisfies Record<string, StepStyle>;
