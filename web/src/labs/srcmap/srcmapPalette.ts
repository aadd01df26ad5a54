/**
 * The SRCMap view's colours, from the Okabe–Ito palette (viz/palette.ts) so they stay apart for
 * colour-blind readers, and never alone: each disk state also has its own icon shape and its
 * name written beside it; each chart line its own dash and a label at its end. The states keep
 * the Devices lab's disk colours where they overlap (spinning ≈ active, vermillion; idle blue;
 * spinning up reddish purple), standby is black (stopped).
 */
import type { DiskState } from './srcmapTypes';

export interface StateStyle {
  colour: string;
  /** The icon drawn beside the label: a platter with a sector (turning), a ring, a stop square, an up arrow. */
  icon: 'platter' | 'ring' | 'square' | 'arrow';
  /** The state in words. */
  label: string;
  /** Text on the colour (white or black, whichever reads). */
  ink: string;
}

export const STATE_STYLES: Record<DiskState, StateStyle> = {
  spinning: { colour: '#D55E00', icon: 'platter', label: 'spinning', ink: '#ffffff' },
  idle: { colour: '#0072B2', icon: 'ring', label: 'idle', ink: '#ffffff' },
  standby: { colour: '#000000', icon: 'square', label: 'standby', ink: '#ffffff' },
  'spinning-up': { colour: '#CC79A7', icon: 'arrow', label: 'spinning up', ink: '#000000' },
};

const UNKNOWN: StateStyle = { colour: '#6b7280', icon: 'ring', label: '?', ink: '#ffffff' };

/** A state's style (one the page does not know shows grey, named as the snapshot names it). */
export function stateStyle(state: string): StateStyle {
  return (STATE_STYLES as Record<string, StateStyle>)[state] ?? { ...UNKNOWN, label: state || '?' };
}

/** Why a disk spun up (the "power" view's spin_up_cause: 0, 1, 2), each its own shape and colour. */
export interface SpinUpStyle {
  colour: string;
  shape: 'triangle' | 'diamond' | 'bar';
  /** In the legend. */
  label: string;
  /** In the keyboard readout. */
  word: string;
}

export const SPINUP_STYLES: readonly SpinUpStyle[] = [
  { colour: '#0072B2', shape: 'triangle', label: 'planned spin-up (a decision: interval, level, re-trigger)', word: 'planned' },
  { colour: '#D55E00', shape: 'diamond', label: 'spin-up for a read miss', word: 'read miss' },
  { colour: '#CC79A7', shape: 'bar', label: 'spin-up for other I/O (a write, sync, a baseline’s request)', word: 'other I/O' },
];

/** The style of cause `c` (anything unknown reads as other I/O). */
export function spinUpStyle(c: number): SpinUpStyle {
  return SPINUP_STYLES[c === 0 || c === 1 ? c : 2]!;
}

export const SM = {
  /** The watts line (a step: the watts move when the set of spinning disks does). */
  watts: '#D55E00',
  /** Eq. 3.1's ideal, proportional to load. */
  ideal: '#009E73',
  /** The all-on and standby references. */
  ref: '#6b7280',
  /** The load, on the second axis (dashed, so it does not read as a map edge). */
  load: '#0072B2',
  /** Spin-up marks: see SPINUP_STYLES (by cause). */
  spinUp: '#CC79A7',
  /** An edge where a volume is served now. */
  served: '#0072B2',
  /** An edge to where a volume has a copy (its primary or a replica) and is not served. */
  copy: '#8b949e',
  /** A located block's copies. */
  located: '#E69F00',
  axis: '#6b7280',
  ink: '#1f2328',
  muted: '#5b6370',
  panel: '#f6f8fa',
} as const;
