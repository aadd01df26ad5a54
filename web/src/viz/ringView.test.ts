// The ring view from fixture rings: geometry, the static layer (snapshot), the focused VID's
// chains and strip (snapshot), messages at their interpolated places, joins' progress, failed
// nodes, hit-testing, and a layer cost that does not grow with the VIDs.
import { describe, expect, it } from 'vitest';
import { sceneText, sceneTexts, type Scene, type SceneItem } from './canvasScene';
import { evenRing, fixtureJoins, fixtureMessages, hashedRing } from './fawnkvFixtures';
import { chainsOf, indexRing, vidName } from './ringModel';
import {
  MESSAGE_COLOURS,
  angleOf,
  describeVid,
  endpointAt,
  messagePoint,
  nodeColour,
  pointAt,
  positionAt,
  ringBaseScene,
  ringOverlayScene,
  stripWindow,
  vidAtPoint,
  type RingOverlayOptions,
} from './ringView';

const ONE_FE = [{ id: 0, start: 0, end: 0 }];
const six = indexRing(evenRing(6, 2));
const nodes = (ids: number[], failed: number[] = []) => ids.map((id) => ({ id, state: failed.includes(id) ? ('failed' as const) : ('up' as const) }));
const base = (failed: number[] = [], width = 800) => ringBaseScene(six, { width, replication: 3, nodes: nodes([0, 1, 2, 3, 4, 5], failed), frontEnds: ONE_FE });
const overlay = (o: Partial<RingOverlayOptions>, ring = six, width = 800) => {
  const { layout } = ringBaseScene(ring, { width, replication: 3, nodes: nodes([...ring.shares.keys()]), frontEnds: ONE_FE });
  const opts: RingOverlayOptions = { focus: null, pinned: false, replication: 3, nowNs: 0, messages: [], joins: [], frontEnds: ONE_FE, ...o };
  return { scene: ringOverlayScene(ring, layout, opts), layout };
};
const of = <T extends SceneItem['t']>(s: Scene, t: T) => s.items.filter((i): i is Extract<SceneItem, { t: T }> => i.t === t);

describe('geometry', () => {
  it('puts 0 at 12 o\'clock, runs clockwise, and inverts', () => {
    const { layout: L } = base();
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

  it('gives nodes distinct colours, fading each further cycle of ten', () => {
    const first = Array.from({ length: 10 }, (_, i) => nodeColour(i));
    expect(new Set(first).size).toBe(10);
    expect(nodeColour(10)).not.toBe(nodeColour(0));
    expect(nodeColour(10)).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('the static layer', () => {
  it('draws ranges, a tick and a name per VID, the front-end band and the legend (snapshot)', async () => {
    const { scene } = base();
    const ticks = of(scene, 'segments').filter((s) => s.tag?.startsWith('node '));
    expect(ticks.map((t) => t.xy.length / 4)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(ticks.map((t) => t.stroke)).toEqual([0, 1, 2, 3, 4, 5].map(nodeColour));
    expect(of(scene, 'arcs').reduce((n, a) => n + a.spans.length / 2, 0)).toBe(12);
    const texts = sceneTexts(scene);
    expect(texts).toEqual(expect.arrayContaining(['0/0', '5/1', 'FE 0: whole ring', '6 nodes · 12 VIDs · R = 3', 'node 0 · 16.7% · 2 VIDs', 'put (front-end → head)', 'heartbeat']));
    await expect(sceneText(scene)).toMatchFileSnapshot('./__snapshots__/ringView-base.txt');
  });

  it('greys a failed node\'s ranges and ticks and crosses each of its VIDs', () => {
    const { scene } = base([4]);
    const tick4 = of(scene, 'segments').find((s) => s.tag === 'node 4')!;
    expect(tick4.stroke).not.toBe(nodeColour(4));
    expect(of(scene, 'segments').filter((s) => s.tag?.startsWith('failed')).map((s) => s.tag)).toEqual(['failed 4/0', 'failed 4/1']);
    expect(sceneTexts(scene)).toContain('node 4 · 16.7% · 2 VIDs · failed');
  });

  it('stays small at 4096 VIDs on 64 nodes: one stroke per colour, sub-pixel ranges merged, no names', () => {
    const big = indexRing(hashedRing(64, 64));
    const { scene, layout } = ringBaseScene(big, { width: 800, replication: 3, nodes: nodes([...Array(64).keys()]), frontEnds: ONE_FE });
    expect(layout.labels).toBe(false);
    expect(scene.items.length).toBeLessThan(64 * 2 + 80);
    // Sub-pixel ranges merge: at most one arc per pixel of the band's circumference, and together they close the ring.
    const arcs = of(scene, 'arcs');
    const spans = arcs.flatMap((a) => Array.from({ length: a.spans.length / 2 }, (_, k) => a.spans[2 * k + 1]! - a.spans[2 * k]!));
    expect(spans.length).toBeLessThanOrEqual(2 * Math.PI * arcs[0]!.r);
    expect(spans.length).toBeGreaterThan(500);
    expect(spans.reduce((a, b) => a + b, 0)).toBeCloseTo(2 * Math.PI, 9);
    expect(sceneTexts(scene)).toContain('64 nodes: ten hues, paler each cycle of ten');
  });
});

describe('the overlay', () => {
  it('marks the focused VID\'s range and its three chains, head/mid/tail, and lists them (snapshot)', async () => {
    const focus = 3; // 3/0
    const { scene } = overlay({ focus, pinned: true });
    expect(of(scene, 'circle').filter((c) => c.tag).map((c) => c.tag)).toEqual(['head', 'mid', 'tail']);
    expect(of(scene, 'arc').filter((a) => a.tag?.startsWith('chain')).map((a) => a.tag)).toEqual(['chain 3/0', 'chain 2/0', 'chain 1/0']);
    expect(sceneTexts(scene)).toEqual(expect.arrayContaining([
      'VID 3/0 owns (3555…, 4aaa…] (8.33%) and sits in 3 chains:',
      'head of (3555…, 4aaa…]: 3/0 → 4/0 → 5/0',
      'mid of (2000…, 3555…]: 2/0 → 3/0 → 4/0',
      'tail of (0aaa…, 2000…]: 1/0 → 2/0 → 3/0',
    ]));
    // The strip: from one before the furthest head (0/0) to one after the furthest tail (5/0 → 0/1).
    expect(stripWindow(six, focus, chainsOf(six.vids, focus, 3)).map((i) => vidName(six.vids, i))).toEqual(['0/0', '1/0', '2/0', '3/0', '4/0', '5/0', '0/1']);
    await expect(sceneText(scene)).toMatchFileSnapshot('./__snapshots__/ringView-focus.txt');
  });

  it('says how to focus when nothing is', () => {
    expect(sceneTexts(overlay({}).scene).some((t) => t.startsWith('Point at a VID'))).toBe(true);
  });

  it('moves each message from sender to receiver with virtual time, a back-end at its VID in the key\'s chain', () => {
    const { layout: L } = overlay({});
    // put from front-end 0 to node 2 for a key in 1/0's range: the chain is 1/0 → 2/0 → 3/0, so node 2 is at 2/0.
    const m = { id: 1, kind: 'put' as const, from: -1, to: 2, pos: 0.1, sent_ns: 1000, arrive_ns: 3000, bytes: 300 };
    const a = endpointAt(six, L, m.from, m.pos, 3, ONE_FE)!;
    const b = endpointAt(six, L, m.to, m.pos, 3, ONE_FE)!;
    expect(a).toEqual([L.cx, L.cy]);
    expect(b).toEqual(pointAt(L, 2.5 / 12, L.rTickInner));
    expect(messagePoint(a, b, m, 0)).toEqual(a);
    expect(messagePoint(a, b, m, 2000)).toEqual([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    expect(messagePoint(a, b, m, 9000)).toEqual(b);
    // A node not in the key's chain is placed at its first VID.
    expect(endpointAt(six, L, 5, 0.1, 3, ONE_FE)).toEqual(pointAt(L, 5.5 / 12, L.rTickInner));
    expect(endpointAt(six, L, 9, 0.1, 3, ONE_FE)).toBeNull();
    const { scene } = overlay({ messages: [m], nowNs: 2000 });
    const put = of(scene, 'dots').find((d) => d.tag === 'put')!;
    expect(put.fill).toBe(MESSAGE_COLOURS.put);
    expect(put.xy[0]).toBeCloseTo((a[0] + b[0]) / 2, 9);
  });

  it('draws every kind of message in its colour and counts them', () => {
    const msgs = fixtureMessages(1e6);
    const { scene } = overlay({ messages: msgs, nowNs: 1e6 });
    const kinds = of(scene, 'dots').map((d) => d.tag).sort();
    expect(kinds).toEqual([...new Set(msgs.map((m) => m.kind))].sort());
    expect(sceneTexts(scene)).toContain('9 messages in flight or queued');
  });

  it('shows a join\'s copied share of its range and names its phase', () => {
    const [precopy] = fixtureJoins();
    const { scene, layout: L } = overlay({ joins: fixtureJoins() });
    const arcs = of(scene, 'arc').filter((a) => a.r === L.rJoin);
    // Track, progress (a third of 0.075), track, progress (all of it, dark: pre-copy is over).
    expect(arcs).toHaveLength(4);
    expect(arcs[1]!.a1 - arcs[1]!.a0).toBeCloseTo((2 * Math.PI * (precopy!.end - precopy!.start)) / 3, 9);
    expect(arcs[1]!.stroke).toBe(nodeColour(6));
    expect(arcs[3]!.a1 - arcs[3]!.a0).toBeCloseTo(2 * Math.PI * 0.06, 9);
    expect(sceneTexts(scene)).toEqual(expect.arrayContaining(['Joins (2)', '6/0 tail of (2000…, 3333…]: precopy 33%', '6/1 head of (9999…, a8f5…]: flush 100%']));
  });

  it('costs the same at 4096 VIDs as at 12: no per-VID work per frame', () => {
    const big = indexRing(hashedRing(64, 64));
    const msgs = fixtureMessages(1e6).map((m) => ({ ...m, to: m.to >= 0 ? m.to : m.to, from: m.from }));
    const small = overlay({ focus: 3, messages: msgs, nowNs: 1e6, joins: fixtureJoins() }).scene.items.length;
    const large = overlay({ focus: 100, messages: msgs, nowNs: 1e6, joins: fixtureJoins() }, big).scene.items.length;
    expect(large).toBeLessThan(small + 40);
  });
});

describe('reading the ring', () => {
  it('finds the VID under the pointer on the ring and in the strip', () => {
    const { layout: L } = overlay({});
    const r = (L.rBandOuter + L.rBandInner) / 2;
    for (let i = 0; i < 12; i++) {
      const [x, y] = pointAt(L, six.vids.pos[i]!, r);
      expect(vidAtPoint(six, L, x, y, null, 3)).toBe(i);
    }
    const [x, y] = pointAt(L, 3.4 / 12, L.rTickInner);
    expect(vidName(six.vids, vidAtPoint(six, L, x, y, null, 3))).toBe('3/0');
    expect(vidAtPoint(six, L, L.cx, L.cy, null, 3)).toBe(-1);
    // The strip's first slot, with 3/0 focused, is 0/0.
    expect(vidName(six.vids, vidAtPoint(six, L, L.strip.slotsX + 2, L.strip.y + 34, 3, 3))).toBe('0/0');
    expect(vidAtPoint(six, L, L.strip.slotsX + 2, L.strip.y + 34, null, 3)).toBe(-1);
  });

  it('describes a VID in words for the readout', () => {
    expect(describeVid(six, 3, 3)).toBe(
      'VID 3/0 (node 3, 4 of 12 in ring order) owns (3555…, 4aaa…], 8.33% of the ring; in 3 chains: ' +
        'head of (3555…, 4aaa…]: 3/0 → 4/0 → 5/0; mid of (2000…, 3555…]: 2/0 → 3/0 → 4/0; tail of (0aaa…, 2000…]: 1/0 → 2/0 → 3/0.',
    );
  });
});

describe('the ring on a phone', () => {
  it('says its hint and the focused VID in fewer words, and labels chain rows by range only', () => {
    const hint = sceneTexts(overlay({ focus: null }, six, 336).scene);
    expect(hint).toContain('Tap or point at a VID to see its range and chains.');
    const text = sceneTexts(overlay({ focus: 0 }, six, 336).scene);
    expect(text.some((t) => /^VID \d+\/\d+: \(.*\], [\d.]+%; \d+ chains?:$/.test(t))).toBe(true);
    expect(text.some((t) => /^(head|mid|tail) of \([^)]*\]$/.test(t))).toBe(true);
    expect(text.some((t) => /^(head|mid|tail) of .*→/.test(t))).toBe(false);
  });
});
