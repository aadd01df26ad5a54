// The cluster timeline: QPS on the left axis, watts on the right, both labelled with units.
import { describe, expect, it } from 'vitest';
import { sceneText, sceneTexts } from '../../viz/canvasScene';
import { fixtureKvSnapshot } from './fawnkvFixtures';
import { QPS_COLOUR, WATTS_COLOUR, kvTimelineScene } from './fawnkvTimeline';

describe('kvTimelineScene', () => {
  it('draws QPS and watts on their own round axes (snapshot)', async () => {
    const snap = fixtureKvSnapshot();
    const scene = kvTimelineScene(snap.timeline, snap.now_ns, 700);
    const texts = sceneTexts(scene);
    // Left axis 0 … 2,000 QPS, right axis 0 … 50 W.
    expect(texts).toEqual(expect.arrayContaining(['2,000', '1,000', '50', '25', 'queries per second (left axis)', 'cluster power, W (right axis)', 'virtual time (s), 100 ms buckets']));
    const lines = scene.items.filter((i) => i.t === 'path');
    expect(lines.map((l) => (l.t === 'path' ? l.stroke : ''))).toEqual([QPS_COLOUR, WATTS_COLOUR]);
    // 14 complete buckets; the drop to 1,200 QPS at 1.2 s is three quarters of 1,600's height above the axis.
    const qps = lines[0]!.t === 'path' ? lines[0]!.points : [];
    expect(qps).toHaveLength(14);
    const base = 22 + 110;
    expect((base - qps[13]![1]) / (base - qps[0]![1])).toBeCloseTo(0.75, 9);
    await expect(sceneText(scene)).toMatchFileSnapshot('./__snapshots__/fawnkvTimeline.txt');
  });

  it('draws no lines before two buckets are complete', () => {
    expect(kvTimelineScene([{ t_ns: 0, qps: 5, watts: 20 }], 50e6, 600).items.some((i) => i.t === 'path')).toBe(false);
  });
});
