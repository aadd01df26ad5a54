// The real cluster's ring through the FAWN-KV lab's ring view: a status's 40-hex VIDs become
// ticks at their positions, a failed back-end is crossed out, and the focused VID's chains are
// the front-end's routes.
import { describe, expect, it } from 'vitest';
import { backendsOf, joinsOf, changeOf, ringNodes, ringToVids } from '../model/clusterView';
import type { ClusterViewWire } from '@wire/cluster';
import { emptyClusterView } from '@wire/cluster.fake';
import { sceneTexts, type Scene, type SceneItem } from './canvasScene';
import { chainsOf, indexRing, vidName } from './ringModel';
import { ringBaseScene } from './ringBase';
import { ringOverlayScene } from './ringOverlay';

const hex = (top: string) => top.padEnd(40, '0');
// Eight VIDs, two per node, at 1/16, 3/16, …; each range's chain is its owner's node and the next two.
const vidHex = ['10', '30', '50', '70', '90', 'b0', 'd0', 'f0'];
const status: ClusterViewWire = {
  ...emptyClusterView(),
  nodes: [0, 1, 2, 3].map((id) => ({ id, role: 'backend' as const, state: id === 3 ? 'failed' : 'up', process: id === 3 ? 'killed' : 'running' })),
  ring: [['10', 0, 0], ['30', 1, 0], ['50', 2, 0], ['70', 3, 0], ['90', 0, 1], ['b0', 1, 1], ['d0', 2, 1], ['f0', 3, 1]].map(([h, node, index]) => ({ vid: hex(h as string), node: node as number, index: index as number })),
  chains: vidHex.map((h, i) => ({ range: [hex(vidHex[(i + 7) % 8]!), hex(h)] as [string, string], chain: [i % 4, (i + 1) % 4, (i + 2) % 4], epoch: 1, reader: (i + 2) % 4 })),
  changes: [{ range: [hex('50'), hex('70')], phase: 'precopy', oldChain: [3, 0, 1], newChain: [3, 0, 1], joiner: 3, donor: 0 }], events: [],
};
const of = <T extends SceneItem['t']>(s: Scene, t: T) => s.items.filter((i): i is Extract<SceneItem, { t: T }> => i.t === t);

describe('the live ring from a status', () => {
  const ring = indexRing(ringToVids(status.ring, status.chains));
  const FE = [{ id: 0, start: 0, end: 0 }];
  const { scene, layout } = ringBaseScene(ring, { width: 800, replication: 3, nodes: ringNodes(backendsOf(status)), frontEnds: FE });

  it('draws every VID by name and crosses out the failed node', () => {
    expect(sceneTexts(scene)).toEqual(expect.arrayContaining(['0/0', '1/0', '2/0', '3/0', '0/1', '1/1', '2/1', '3/1']));
    expect(of(scene, 'segments').filter((s) => s.tag?.startsWith('failed')).map((s) => s.tag)).toEqual(['failed 3/0', 'failed 3/1']);
    expect([...ring.vids.pos]).toEqual([1, 3, 5, 7, 9, 11, 13, 15].map((k) => k / 16));
  });

  it('shows the focused VID\'s chains and the joins from the changes', () => {
    const focus = ring.byName.get('2/0')!;
    expect(chainsOf(ring, focus).map((c) => c.chain.map((i) => vidName(ring.vids, i)).join(' → '))).toEqual(['2/0 → 3/0 → 0/1', '1/0 → 2/0 → 3/0', '0/0 → 1/0 → 2/0']);
    const overlay = ringOverlayScene(ring, layout, { focus, pinned: true, nowNs: 0, messages: [], joins: joinsOf(status.changes.map(changeOf)), frontEnds: FE });
    const texts = sceneTexts(overlay);
    expect(texts).toContain('Joins (1)');
    expect(texts.some((t) => t.startsWith('VID 2/0 owns'))).toBe(true);
    expect(texts).toContain('node 3 tail of (5000…, 7000…]: precopy');
  });
});
