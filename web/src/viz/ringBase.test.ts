// The ring view's static layer from fixture rings: ranges, ticks and names (snapshot), failed
// nodes, and a layer that stays small at 4096 VIDs.
import { describe, expect, it } from 'vitest';
import { sceneText, sceneTexts } from './canvasScene';
import { evenRing, hashedRing, itemsOf, ONE_FE, ringNodesOf } from './ringFixtures';
import { ringBaseScene } from './ringBase';
import { indexRing } from './ringModel';
import { nodeColour } from './ringPalette';

const six = indexRing(evenRing(6, 2));
const base = (failed: number[] = [], width = 800) => ringBaseScene(six, { width, replication: 3, nodes: ringNodesOf([0, 1, 2, 3, 4, 5], failed), frontEnds: ONE_FE });

describe('the static layer', () => {
  it('draws ranges, a tick and a name per VID, the front-end band and the legend (snapshot)', async () => {
    const { scene } = base();
    const ticks = itemsOf(scene, 'segments').filter((s) => s.tag?.startsWith('node '));
    expect(ticks.map((t) => t.xy.length / 4)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(ticks.map((t) => t.stroke)).toEqual([0, 1, 2, 3, 4, 5].map(nodeColour));
    expect(itemsOf(scene, 'arcs').reduce((n, a) => n + a.spans.length / 2, 0)).toBe(12);
    const texts = sceneTexts(scene);
    expect(texts).toEqual(expect.arrayContaining(['0/0', '5/1', 'FE 0: whole ring', '6 nodes · 12 VIDs · R = 3', 'node 0 · 16.7% · 2 VIDs', 'put (front-end → head)', 'heartbeat']));
    await expect(sceneText(scene)).toMatchFileSnapshot('./__snapshots__/ringBase.txt');
  });

  it('greys a failed node\'s ranges and ticks and crosses each of its VIDs', () => {
    const { scene } = base([4]);
    const tick4 = itemsOf(scene, 'segments').find((s) => s.tag === 'node 4')!;
    expect(tick4.stroke).not.toBe(nodeColour(4));
    expect(itemsOf(scene, 'segments').filter((s) => s.tag?.startsWith('failed')).map((s) => s.tag)).toEqual(['failed 4/0', 'failed 4/1']);
    expect(sceneTexts(scene)).toContain('node 4 · 16.7% · 2 VIDs · failed');
  });

  it('stays small at 4096 VIDs on 64 nodes: one stroke per colour, sub-pixel ranges merged, no names', () => {
    const big = indexRing(hashedRing(64, 64));
    const { scene, layout } = ringBaseScene(big, { width: 800, replication: 3, nodes: ringNodesOf([...Array(64).keys()]), frontEnds: ONE_FE });
    expect(layout.labels).toBe(false);
    expect(scene.items.length).toBeLessThan(64 * 2 + 80);
    // Sub-pixel ranges merge: at most one arc per pixel of the band's circumference, and together they close the ring.
    const arcs = itemsOf(scene, 'arcs');
    const spans = arcs.flatMap((a) => Array.from({ length: a.spans.length / 2 }, (_, k) => a.spans[2 * k + 1]! - a.spans[2 * k]!));
    expect(spans.length).toBeLessThanOrEqual(2 * Math.PI * arcs[0]!.r);
    expect(spans.length).toBeGreaterThan(500);
    expect(spans.reduce((a, b) => a + b, 0)).toBeCloseTo(2 * Math.PI, 9);
    expect(sceneTexts(scene)).toContain('64 nodes: ten hues, paler each cycle of ten');
  });
});
