// The ring view's geometry: 0 at 12 o'clock, clockwise, positions and points inverting each
// other, and hit-testing on the ring and in the strip.
import { describe, expect, it } from 'vitest';
import { evenRing, ringOverlayOf } from './ringFixtures';
import { angleOf, pointAt, positionAt, vidAtPoint } from './ringLayout';
import { indexRing, vidName } from './ringModel';

const six = indexRing(evenRing(6, 2));

describe('geometry', () => {
  it('puts 0 at 12 o\'clock, runs clockwise, and inverts', () => {
    const { layout: L } = ringOverlayOf(six, {});
    expect(angleOf(0)).toBeCloseTo(-Math.PI / 2, 12);
    const [x0, y0] = pointAt(L, 0, 100);
    expect([x0, y0]).toEqual([expect.closeTo(L.cx, 9), expect.closeTo(L.cy - 100, 9)]);
    const [x1, y1] = pointAt(L, 0.25, 100);
    expect([x1, y1]).toEqual([expect.closeTo(L.cx + 100, 9), expect.closeTo(L.cy, 9)]);
    for (const p of [0, 0.1, 0.25, 0.5, 0.9, 0.999]) {
      const [x, y] = pointAt(L, p, 80);
      const back = positionAt(L, x, y);
      expect(Math.min(Math.abs(back.pos - p), 1 - Math.abs(back.pos - p))).toBeLessThan(1e-9);
      expect(back.dist).toBeCloseTo(80, 9);
    }
  });
});

describe('hit-testing', () => {
  it('finds the VID under the pointer on the ring and in the strip', () => {
    const { layout: L } = ringOverlayOf(six, {});
    const r = (L.rBandOuter + L.rBandInner) / 2;
    for (let i = 0; i < 12; i++) {
      const [x, y] = pointAt(L, six.vids.pos[i]!, r);
      expect(vidAtPoint(six, L, x, y, null)).toBe(i);
    }
    const [x, y] = pointAt(L, 3.4 / 12, L.rTickInner);
    expect(vidName(six.vids, vidAtPoint(six, L, x, y, null))).toBe('3/0');
    expect(vidAtPoint(six, L, L.cx, L.cy, null)).toBe(-1);
    // The strip's first slot, with 3/0 focused, is 0/0.
    expect(vidName(six.vids, vidAtPoint(six, L, L.strip.slotsX + 2, L.strip.y + 34, 3))).toBe('0/0');
    expect(vidAtPoint(six, L, L.strip.slotsX + 2, L.strip.y + 34, null)).toBe(-1);
  });
});
