// The ring in words: positions, shares, and the readout's sentence about a VID.
import { describe, expect, it } from 'vitest';
import { evenRing } from './ringFixtures';
import { indexRing } from './ringModel';
import { describeVid, fmtPos, fmtRange, fmtShare } from './ringText';

describe('the ring in words', () => {
  it('names positions by their first 16 bits and shares in per cent', () => {
    expect(fmtPos(0.5)).toBe('8000…');
    expect(fmtRange(0, 0.25)).toBe('(0000…, 4000…]');
    expect([fmtShare(0.5), fmtShare(0.05)]).toEqual(['50.0%', '5.00%']);
  });

  it('describes a VID in words for the readout', () => {
    expect(describeVid(indexRing(evenRing(6, 2)), 3)).toBe(
      'VID 3/0 (node 3, 4 of 12 in ring order) owns (3555…, 4aaa…], 8.33% of the ring; in 3 chains: ' +
        'head of (3555…, 4aaa…]: 3/0 → 4/0 → 5/0; mid of (2000…, 3555…]: 2/0 → 3/0 → 4/0; tail of (0aaa…, 2000…]: 1/0 → 2/0 → 3/0.',
    );
    expect(describeVid(indexRing(evenRing(6, 2)), 12)).toBe('No VID.');
  });
});
