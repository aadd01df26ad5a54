/**
 * Colours that survive colour-blindness (Okabe & Ito, "Color Universal Design", 2008). A
 * measured series and the theory or paper series of the same quantity share a colour; the line
 * style (solid, dashed, markers only) tells them apart, so colour is never the only cue.
 */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];

/** Job states in the live queue view. */
export const STATE_COLOURS = { waiting: '#0072B2', serving: '#E69F00', done: '#009E73', dropped: '#D55E00' } as const;

/**
 * The flash view: page states (valid and invalid also differ in lightness, and invalid pages
 * are hatched, so they read in greyscale) and block roles (outlines also differ in dash and
 * carry a text tag).
 */
export const FLASH_COLOURS = {
  free: '#ffffff',
  valid: '#0072B2',
  invalid: '#E69F00',
  invalidHatch: '#8a5200',
  host: '#000000',
  gc: '#009E73',
  victim: '#D55E00',
  erased: '#CC79A7',
} as const;

/** The disk view's power states (the badge also names the state). */
export const DISK_STATE_COLOURS = {
  active: '#D55E00',
  idle: '#0072B2',
  standby: '#5b6370',
  'spinning-up': '#CC79A7',
} as const;
