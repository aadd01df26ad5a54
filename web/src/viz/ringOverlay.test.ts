// The ring view's moving layer from fixture rings: the focused VID's chains and strip
// (snapshot), messages at their interpolated places, joins' progress, a layer cost that does
// not grow with the VIDs, and the shorter words on a phone.
import { describe, expect, it } from 'vitest';
import { sceneText, sceneTexts } from './canvasScene';
import { evenRing, fixtureJoins, fixtureMessages, hashedRing, itemsOf, ONE_FE, ringOverlayOf } from './ringFixtures';
import { endpointAt, pointAt, stripWindow } from './ringLayout';
import { chainsOf, indexRing, vidName } from './ringModel';
import { messagePoint } from './ringOverlay';
import { MESSAGE_COLOURS, nodeColour } from './ringPalette';

const six = indexRing(evenRing(6, 2));

describe('the overlay', () => {
  it('marks the focused VID\'s range and its three chains, head/mid/tail, and lists them (snapshot)', async () => {
    const focus = 3; // 3/0
    const { scene } = ringOverlayOf(six, { focus, pinned: true });
    expect(itemsOf(scene, 'circle').filter((c) => c.tag).map((c) => c.tag)).toEqual(['head', 'mid', 'tail']);
    expect(itemsOf(scene, 'arc').filter((a) => a.tag?.startsWith('chain')).map((a) => a.tag)).toEqual(['chain 3/0', 'chain 2/0', 'chain 1/0']);
    expect(sceneTexts(scene)).toEqual(expect.arrayContaining([
      'VID 3/0 owns (3555…, 4aaa…] (8.33%) and sits in 3 chains:',
      'head of (3555…, 4aaa…]: 3/0 → 4/0 → 5/0',
      'mid of (2000…, 3555…]: 2/0 → 3/0 → 4/0',
      'tail of (0aaa…, 2000…]: 1/0 → 2/0 → 3/0',
    ]));
    // The strip: from one before the furthest head (0/0) to one after the furthest tail (5/0 → 0/1).
    expect(stripWindow(six, focus, chainsOf(six, focus)).map((i) => vidName(six.vids, i))).toEqual(['0/0', '1/0', '2/0', '3/0', '4/0', '5/0', '0/1']);
    await expect(sceneText(scene)).toMatchFileSnapshot('./__snapshots__/ringOverlay-focus.txt');
  });

  it('says how to focus when nothing is', () => {
    expect(sceneTexts(ringOverlayOf(six, {}).scene).some((t) => t.startsWith('Point at a VID'))).toBe(true);
  });

  it('moves each message from sender to receiver with virtual time, a back-end at its VID in the key\'s chain', () => {
    const { layout: L } = ringOverlayOf(six, {});
    // put from front-end 0 to node 2 for a key in 1/0's range: the chain is 1/0 → 2/0 → 3/0, so node 2 is at 2/0.
    const m = { id: 1, kind: 'put' as const, from: -1, to: 2, pos: 0.1, sent_ns: 1000, arrive_ns: 3000, bytes: 300 };
    const a = endpointAt(six, L, m.from, m.pos, ONE_FE)!;
    const b = endpointAt(six, L, m.to, m.pos, ONE_FE)!;
    expect(a).toEqual([L.cx, L.cy]);
    expect(b).toEqual(pointAt(L, 2.5 / 12, L.rTickInner));
    expect(messagePoint(a, b, m, 0)).toEqual(a);
    expect(messagePoint(a, b, m, 2000)).toEqual([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    expect(messagePoint(a, b, m, 9000)).toEqual(b);
    // A node not in the key's chain is placed at its first VID.
    expect(endpointAt(six, L, 5, 0.1, ONE_FE)).toEqual(pointAt(L, 5.5 / 12, L.rTickInner));
    expect(endpointAt(six, L, 9, 0.1, ONE_FE)).toBeNull();
    const { scene } = ringOverlayOf(six, { messages: [m], nowNs: 2000 });
    const put = itemsOf(scene, 'dots').find((d) => d.tag === 'put')!;
    expect(put.fill).toBe(MESSAGE_COLOURS.put);
    expect(put.xy[0]).toBeCloseTo((a[0] + b[0]) / 2, 9);
  });

  it('draws every kind of message in its colour and counts them', () => {
    const msgs = fixtureMessages(1e6);
    const { scene } = ringOverlayOf(six, { messages: msgs, nowNs: 1e6 });
    const kinds = itemsOf(scene, 'dots').map((d) => d.tag).sort();
    expect(kinds).toEqual([...new Set(msgs.map((m) => m.kind))].sort());
    expect(sceneTexts(scene)).toContain('9 messages in flight or queued');
  });

  it('shows a join\'s copied share of its range and names its phase', () => {
    const [precopy] = fixtureJoins();
    const { scene, layout: L } = ringOverlayOf(six, { joins: fixtureJoins() });
    const arcs = itemsOf(scene, 'arc').filter((a) => a.r === L.rJoin);
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
    const small = ringOverlayOf(six, { focus: 3, messages: msgs, nowNs: 1e6, joins: fixtureJoins() }).scene.items.length;
    const large = ringOverlayOf(big, { focus: 100, messages: msgs, nowNs: 1e6, joins: fixtureJoins() }).scene.items.length;
    expect(large).toBeLessThan(small + 40);
  });
});

describe('the ring on a phone', () => {
  it('says its hint and the focused VID in fewer words, and labels chain rows by range only', () => {
    const hint = sceneTexts(ringOverlayOf(six, { focus: null }, 336).scene);
    expect(hint).toContain('Tap or point at a VID to see its range and chains.');
    const text = sceneTexts(ringOverlayOf(six, { focus: 0 }, 336).scene);
    expect(text.some((t) => /^VID \d+\/\d+: \(.*\], [\d.]+%; \d+ chains?:$/.test(t))).toBe(true);
    expect(text.some((t) => /^(head|mid|tail) of \([^)]*\]$/.test(t))).toBe(true);
    expect(text.some((t) => /^(head|mid|tail) of .*→/.test(t))).toBe(false);
  });
});
