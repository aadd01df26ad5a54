/** The Devices lab's colours, from the shared colour-blind-safe palette (viz/palette.ts). */

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
