import { describe, expect, it } from 'vitest';
import { sceneTexts, type SceneItem } from '../../viz/canvasScene';
import { CONA } from './conaPalette';
import { READ_COLOUR, readTimeline, timelineScene, WRITE_COLOUR } from './timelineScene';

const tl = {
  t_ns: Float64Array.from({ length: 40 }, (_, i) => 1e9 + i * 5e7),
  write_iops: Float64Array.from({ length: 40 }, (_, i) => (i % 10 === 9 ? 700_000 : 100_000)),
  read_iops: Float64Array.from({ length: 40 }, (_, i) => (i < 20 ? 35_000 : 14_000)),
};

describe('timelineScene', () => {
  it('draws write and read IOPS as two lines on their own axes over one time axis', () => {
    const sc = timelineScene(tl, 3e9, [], 700);
    const lines = sc.items.filter((it): it is Extract<SceneItem, { t: 'path' }> => it.t === 'path');
    expect(lines.map((l) => l.stroke)).toEqual([WRITE_COLOUR, READ_COLOUR]);
    expect(lines[0]!.points).toHaveLength(40);
    const t = sceneTexts(sc);
    expect(t).toContain('write IOPS (puts per second of time spent putting)');
    expect(t).toEqual(expect.arrayContaining(['1M', '500k', '50k', '25k']));
    // The spikes reach higher than the plateau.
    const ys = lines[0]!.points.map((p) => p[1]);
    expect(Math.min(...ys)).toBeLessThan(ys[0]! - 40);
  });

  it('marks a flip inside the window across both plots, and says when there are no reads', () => {
    const sc = timelineScene({ ...tl, read_iops: new Float64Array(40) }, 3e9, [{ t_ns: 2e9, kind: 'flip', level: 4 }, { t_ns: 1e8, kind: 'flip', level: 2 }], 700);
    const flips = sc.items.filter((it) => it.t === 'line' && it.stroke === CONA.flip);
    expect(flips).toHaveLength(1);
    expect(sceneTexts(sc)).toContain('flip L4');
    expect(sceneTexts(sc)).toContain('no reads: the load is inserts only');
  });

  it('labels a cascade of flips once, and draws a lone sample as a dot', () => {
    const sc = timelineScene({ t_ns: [1e9], write_iops: [5e4], read_iops: [0] }, 3e9, [{ t_ns: 2e9, kind: 'flip', level: 2 }, { t_ns: 2.01e9, kind: 'flip', level: 3 }], 700);
    expect(sc.items.filter((it) => it.t === 'line' && it.stroke === CONA.flip)).toHaveLength(2);
    expect(sceneTexts(sc).filter((t) => t.startsWith('flip'))).toEqual(['flip L2']);
    expect(sc.items.some((it) => it.t === 'dots' && it.fill === WRITE_COLOUR)).toBe(true);
  });

  it('with no samples yet, and on a phone', () => {
    const sc = timelineScene(null, 0, [], 330);
    expect(sceneTexts(sc)).toEqual(expect.arrayContaining(['write IOPS', 'no writes yet']));
    for (const it of sc.items) if (it.t === 'text' && it.align !== 'right') expect(it.x + (it.align === 'center' ? it.text.length * 3.2 : it.text.length * 6.4), it.text).toBeLessThanOrEqual(334);
  });

  it('reads the view\'s columns, or nothing from a view without them', () => {
    expect(readTimeline({ ...tl, sample_ns: 5e7 })?.write_iops).toBe(tl.write_iops);
    expect(readTimeline({ t_ns: tl.t_ns })).toBeNull();
    expect(readTimeline(undefined)).toBeNull();
  });
});
