// The real cluster's ring through the FAWN-KV lab's ring view: a status's 40-hex VIDs become
// ticks at their positions, a failed back-end is crossed out, and the focused VID's chains are
// found as in the simulation.
import { describe, expect, it } from 'vitest';
import { backendsOf, joinsOf, changeOf, ringNodes, ringToVids } from '../model/clusterView';
import type { ClusterViewWire } from '../model/clusterTypes';
import { sceneTexts, type Scene, type SceneItem } from './canvasScene';
import { chainsOf, indexRing, vidName } from './ringModel';
import { ringBaseScene, ringOverlayScene } from './ringView';

const hex = (top: string) => top.padEnd(40, '0');
const status: ClusterViewWire = {
  nodes: [0, 1, 2, 3].map((id) => ({ id, role: 'backend' as const, state: id === 3 ? 'failed' : 'up', process: id === 3 ? 'killed' : 'running' })),
  ring: [['10', 0, 0], ['30', 1, 0], ['50', 2, 0], ['70', 3, 0], ['90', 0, 1], ['b0', 1, 1], ['d0', 2, 1], ['f0', 3, 1]].map(([h, node, index]) => ({ vid: hex(h as string), node: node as number, index: index as number })),
  chains: [], changes: [{ range: [hex('50'), hex('70')], phase: 'precopy', oldChain: [3, 0, 1], newChain: [3, 0, 1], joiner: 3, donor: 0 }], events: [],
};
const of = <T extends SceneItem['t']>(s: Scene, t: T) => s.items.filter((i): i is Extract<SceneItem, { t: T }> => i.t === t);

describe('the live ring from a status', () => {
  const ring = indexRing(ringToVids(status.ring));
  const FE = [{ id: 0, start: 0, end: 0 }];
  const { scene, layout } = ringBaseScene(ring, { width: 800, replication: 3, nodes: ringNodes(backendsOf(status)), frontEnds: FE });

  it('draws every VID by name and crosses out the failed node', () => {
    expect(sceneTexts(scene)).toEqual(expect.arrayContaining(['0/0', '1/0', '2/0', '3/0', '0/1', '1/1', '2/1', '3/1']));
    expect(of(scene, 'segments').filter((s) => s.tag?.startsWith('failed')).map((s) => s.tag)).toEqual(['failed 3/0', 'failed 3/1']);
    expect([...ring.vids.pos]).toEqual([1, 3, 5, 7, 9, 11, 13, 15].map((k) => k / 16));
  });

  it('shows the focused VID\'s chains and the joins from the changes', () => {
    const focus = ring.byName.get('2/0')!;
    expect(chainsOf(ring.vids, focus, 3).map((c) => c.chain.map((i) => vidName(ring.vids, i)).join(' → '))).toEqual(['2/0 → 3/0 → 0/1', '1/0 → 2/0 → 3/0', '0/0 → 1/0 → 2/0']);
    const overlay = ringOverlayScene(ring, layout, { focus, pinned: true, replication: 3, nowNs: 0, messages: [], joins: joinsOf(status.changes.map(changeOf)), frontEnds: FE });
    const texts = sceneTexts(overlay);
    expect(texts).toContain('Joins (1)');
    expect(texts.some((t) => t.startsWith('VID 2/0 owns'))).toBe(true);
    expect(texts).toContain('node 3 tail of (5000…, 7000…]: precopy');
  });
});
