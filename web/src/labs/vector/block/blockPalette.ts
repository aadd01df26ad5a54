/**
 * The block view's colours (Okabe–Ito, colour-blind safe; every phase is also named in the
 * legend and the readout): the three issue-path phases in blktrace's names, the device's time,
 * the completion mark and the interrupts.
 */
export const PHASES = [
  { key: 'QG', label: 'Q→G get request', colour: '#E69F00' },
  { key: 'GI', label: 'G→I insert (scheduler)', colour: '#56B4E9' },
  { key: 'ID', label: 'I→D dispatch', colour: '#CC79A7' },
] as const;
export const DEVICE_COLOUR = '#bfbfbf';
export const COMPLETE_COLOUR = '#000000';
export const IRQ_COLOUR = '#D55E00';
export const GAP_COLOUR = '#0072B2';
export const AXIS = '#6b7280';
