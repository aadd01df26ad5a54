/**
 * Colours that survive colour-blindness (Okabe & Ito, "Color Universal Design", 2008). A
 * measured series and the theory or paper series of the same quantity share a colour; the line
 * style (solid, dashed, markers only) tells them apart, so colour is never the only cue. A
 * lab's own colours (picked from these) live in its folder.
 */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
