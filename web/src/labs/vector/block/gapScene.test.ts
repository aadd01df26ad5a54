import { describe, expect, it } from 'vitest';
import { sceneTexts } from '../../../viz/canvasScene';
import { blockSnapshot } from './blockFixtures';
import { binsShown, gapScene } from './gapScene';

describe('gapScene', () => {
  it('draws through the last non-empty bin', () => {
    expect(binsShown([0, 3, 0, 1, 0, 0])).toBe(4);
    expect(binsShown([0, 0])).toBe(1);
  });

  it('draws one bar per non-empty bin, heights in proportion, with labelled axes', () => {
    const h = blockSnapshot().gap_hist;
    const sc = gapScene(h, 600);
    const bars = sc.items.filter((it) => it.t === 'rect');
    expect(bars).toHaveLength(h.counts.filter((c) => c > 0).length);
    const tallest = bars.find((b) => b.t === 'rect' && b.tag === 'bin 6');
    const half = bars.find((b) => b.t === 'rect' && b.tag === 'bin 5');
    expect(tallest && half && tallest.t === 'rect' && half.t === 'rect' && half.h / tallest.h).toBeCloseTo(30 / 40);
    const t = sceneTexts(sc);
    expect(t).toContain('completions');
    expect(t).toContain('gap between consecutive completions (µs; bins of 10 µs)');
    expect(t).toContain('40');
    expect(t).toContain('0');
  });

  it('draws an empty histogram without bars', () => {
    expect(gapScene({ bin_us: 10, counts: [] }, 330).items.some((it) => it.t === 'rect')).toBe(false);
  });
});
