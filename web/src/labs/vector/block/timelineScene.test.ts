import { describe, expect, it } from 'vitest';
import { sceneTexts } from '../../../viz/canvasScene';
import { blockTimeline } from './blockFixtures';
import { maxRows, rowOrder, timelineScene } from './timelineScene';

describe('timelineScene', () => {
  it('orders I/Os by their Q time and keeps the newest', () => {
    const tl = blockTimeline();
    expect(rowOrder(tl, 10)).toEqual([0, 1, 2]);
    expect(rowOrder(tl, 2)).toEqual([1, 2]);
    expect(maxRows(390)).toBeLessThan(maxRows(800));
  });

  it('draws each phase reached, the device time, C and each interrupt with its count', () => {
    const sc = timelineScene(blockTimeline(), 1000, 2, 800);
    const tags = (tag: string) => sc.items.filter((it) => it.t === 'rect' && it.tag === tag);
    // I/O 7's issue path ended before the window (its device time clips to the left edge); 8 is on the device; 9 in Q→G.
    expect(tags('QG')).toHaveLength(2);
    expect(tags('GI')).toHaveLength(1);
    expect(tags('ID')).toHaveLength(1);
    expect(tags('device')).toHaveLength(2);
    expect(tags('C')).toHaveLength(1);
    const irqs = sc.items.filter((it) => it.t === 'line' && it.stroke === '#D55E00');
    expect(irqs).toHaveLength(2);
    const t = sceneTexts(sc);
    expect(t).toEqual(expect.arrayContaining(['cpu 0', 'cpu 1', '1', '2', 'now', '-1000', 'time (µs before now)']));
    // A phase not finished runs to now at the right edge; the device's time of I/O 8 too.
    const right = 64 + 800 - 64 - 12;
    const dev = tags('device')[1]!;
    expect(dev.t === 'rect' && dev.x + dev.w).toBeCloseTo(right);
  });

  it('places a time at its fraction of the window', () => {
    const sc = timelineScene(blockTimeline(), 1000, 1, 800);
    const c = sc.items.find((it) => it.t === 'rect' && it.tag === 'C');
    // C of I/O 7 at 400 µs of a 1000 µs window: 40% along the 724 px plot, less its half width.
    expect(c && c.t === 'rect' && c.x).toBeCloseTo(64 + 0.4 * 724 - 1);
  });

  it('says so when the window holds no I/O, and fits a phone', () => {
    const tl = blockTimeline();
    const empty = { ...tl, io: new Uint32Array(0), q: new Float64Array(0) };
    expect(sceneTexts(timelineScene(empty, 1000, 2, 330))).toContain('no I/O in this window yet');
    const sc = timelineScene(tl, 1000, 2, 330);
    expect(sc.width).toBe(330);
    for (const it of sc.items) if (it.t === 'rect') expect(it.x + it.w).toBeLessThanOrEqual(330);
  });
});
