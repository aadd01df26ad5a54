/**
 * The ring in words: positions, ranges and shares as the FAWN-DS lab labels key ranges, a
 * chain slot ("tail of (6a3f…, 7c12…]: 2/0 → 4/1 → 3/1") and the readout's sentence about a VID.
 */
import { chainsOf, rangeOf, rangeWidth, vidCount, vidName, type ChainRole, type ChainSlot, type RingIndex } from './ringModel';

export const ROLE_LETTER: Record<ChainRole, string> = { head: 'H', mid: 'M', tail: 'T', only: '1' };
export const ROLE_TEXT: Record<ChainRole, string> = { head: 'head', mid: 'mid', tail: 'tail', only: 'sole copy' };


/** "6a3f…": the first 16 bits of a ring position in hex, as FAWN-DS labels key ranges. */
export function fmtPos(p: number): string {
  return `${Math.min(0xffff, Math.floor(p * 65536)).toString(16).padStart(4, '0')}…`;
}

export function fmtRange(start: number, end: number): string {
  return `(${fmtPos(start)}, ${fmtPos(end)}]`;
}

export function fmtShare(w: number): string {
  return `${(w * 100).toFixed(w < 0.1 ? 2 : 1)}%`;
}

/** One line naming a chain slot: "tail of (6a3f…, 7c12…]: 2/0 → 4/1 → 3/1". */
export function describeSlot(ring: RingIndex, s: ChainSlot): string {
  return `${ROLE_TEXT[s.role]} of ${fmtRange(s.start, s.end)}: ${s.chain.map((i) => vidName(ring.vids, i)).join(' → ')}`;
}

/** What the readout says about VID `i`. */
export function describeVid(ring: RingIndex, i: number): string {
  const { vids } = ring;
  if (i < 0 || i >= vidCount(vids)) return 'No VID.';
  const { start, end } = rangeOf(vids, i);
  const slots = chainsOf(ring, i);
  return `VID ${vidName(vids, i)} (node ${vids.node[i]}, ${i + 1} of ${vidCount(vids)} in ring order) owns ${fmtRange(start, end)}, ${fmtShare(rangeWidth(start, end))} of the ring; ` +
    `in ${slots.length} chain${slots.length === 1 ? '' : 's'}: ${slots.map((s) => describeSlot(ring, s)).join('; ')}.`;
}
