// The ring's columns on hand-checkable rings: SOSP'09 Fig 6's shape (6 nodes, V = 2, R = 3),
// ring_test.cc's hand-checked SHA-1 ring with its chains, chains that skip VIDs, and the
// core's chains inverted into the chains each VID sits in. (The chain rule itself is the
// core's: ring_test.cc checks it, and labs/fawnkv/ringCore.test.ts reads it from the WASM core.)
import { describe, expect, it } from 'vitest';
import { evenRing, hashedRing, ringOf, threeNodeRing } from './ringFixtures';
import {
  chainAt,
  chainFor,
  chainsOf,
  firstVids,
  inRange,
  indexRing,
  nearestVid,
  nodeShares,
  ownerOf,
  rangeOf,
  rangeWidth,
  roleAt,
  vidName,
} from './ringModel';
import type { FawnkvVids } from '../model/ringTypes';

const names = (vids: FawnkvVids, list: number[]) => list.map((i) => vidName(vids, i));
const find = (vids: FawnkvVids, name: string) => Array.from(vids.pos, (_, i) => vidName(vids, i)).indexOf(name);

describe('Fig 6: six nodes, V = 2, R = 3, evenly spaced', () => {
  const ring = evenRing(6, 2);
  const at = (name: string) => find(ring, name);

  it('orders VIDs node by node and gives each (predecessor, VID]', () => {
    expect(names(ring, [...ring.pos.keys()])).toEqual(['0/0', '1/0', '2/0', '3/0', '4/0', '5/0', '0/1', '1/1', '2/1', '3/1', '4/1', '5/1']);
    expect(rangeOf(ring, at('2/0'))).toEqual({ start: 1.5 / 12, end: 2.5 / 12 });
    // 0/0's range wraps through 0: from 5/1 to 0/0.
    expect(rangeOf(ring, at('0/0'))).toEqual({ start: 11.5 / 12, end: 0.5 / 12 });
    expect(rangeWidth(11.5 / 12, 0.5 / 12)).toBeCloseTo(1 / 12, 12);
  });

  it('finds a position\'s owner: its successor, the VID itself included, wrapping past 1', () => {
    expect(vidName(ring, ownerOf(ring, 2.5 / 12))).toBe('2/0');
    expect(vidName(ring, ownerOf(ring, 2.5 / 12 + 1e-12))).toBe('3/0');
    expect(vidName(ring, ownerOf(ring, 0))).toBe('0/0');
    expect(vidName(ring, ownerOf(ring, 0.99))).toBe('0/0');
    expect(inRange(0.99, 11.5 / 12, 0.5 / 12)).toBe(true);
    expect(inRange(0.5, 11.5 / 12, 0.5 / 12)).toBe(false);
  });

  it('reads each range\'s chain from the columns, head first', () => {
    expect(names(ring, chainAt(ring, at('0/0')))).toEqual(['0/0', '1/0', '2/0']);
    expect(names(ring, chainAt(ring, at('5/1')))).toEqual(['5/1', '0/0', '1/0']);
    expect(names(ring, chainFor(indexRing(ring), 0.28))).toEqual(['3/0', '4/0', '5/0']);
    expect(chainAt(ring, 12)).toEqual([]);
  });

  it('puts each VID in R chains: head of its own range, mid of one, tail of one', () => {
    const idx = indexRing(ring);
    const slots = chainsOf(idx, at('3/0'));
    expect(slots.map((s) => [s.role, vidName(ring, s.head), names(ring, s.chain)])).toEqual([
      ['head', '3/0', ['3/0', '4/0', '5/0']],
      ['mid', '2/0', ['2/0', '3/0', '4/0']],
      ['tail', '1/0', ['1/0', '2/0', '3/0']],
    ]);
    expect(slots[2]).toMatchObject({ start: 0.5 / 12, end: 1.5 / 12, position: 2 });
    for (let i = 0; i < 12; i++) expect(chainsOf(idx, i).map((s) => s.role)).toEqual(['head', 'mid', 'tail']);
  });

  it('shares the ring equally and places each node at VID 0', () => {
    for (const [, s] of nodeShares(ring)) expect(s).toEqual({ share: expect.closeTo(1 / 6, 12), vids: 2 });
    expect(names(ring, [...firstVids(ring).values()])).toEqual(['0/0', '1/0', '2/0', '3/0', '4/0', '5/0']);
  });

  it('hit-tests by nearest position around the circle', () => {
    expect(vidName(ring, nearestVid(ring, 0.01))).toBe('0/0');
    expect(vidName(ring, nearestVid(ring, 0.995))).toBe('5/1');
    expect(vidName(ring, nearestVid(ring, 2.4 / 12))).toBe('2/0');
    expect(vidName(ring, nearestVid(ring, 2.9 / 12))).toBe('2/0');
    expect(vidName(ring, nearestVid(ring, 3.1 / 12))).toBe('3/0');
  });
});

describe('ring_test.cc\'s hand-checked SHA-1 ring (nodes 1–3, V = 2)', () => {
  const ring = threeNodeRing();
  const at = (name: string) => find(ring, name);
  const idx = indexRing(ring);

  it('inverts the C++ ring\'s chains into chain slots, a skipped VID in fewer', () => {
    expect(names(ring, [...ring.pos.keys()])).toEqual(['3/0', '1/0', '2/0', '2/1', '1/1', '3/1']);
    // Chains skip VIDs of a node already in the chain: 2/0's successor 2/1 is skipped.
    expect(names(ring, chainFor(idx, 0x95 / 0x100))).toEqual(['2/0', '1/1']);
    expect(names(ring, chainFor(idx, 0xf0 / 0x100))).toEqual(['3/0', '1/0']);
    expect(names(ring, chainFor(idx, 0xe4 / 0x100))).toEqual(['3/1', '1/0']);
    // 1/1: head of its own range, tail of 2/1's and (through the skip) of 2/0's.
    const slots = chainsOf(idx, at('1/1'));
    expect(slots.map((s) => [s.role, names(ring, s.chain)])).toEqual([
      ['head', ['1/1', '3/1']],
      ['tail', ['2/1', '1/1']],
      ['tail', ['2/0', '1/1']],
    ]);
    expect(slots[2]!.end).toBe(rangeOf(ring, at('2/0')).end);
    // 2/1 is in one chain only: every chain before it already holds node 2.
    expect(chainsOf(idx, at('2/1'))).toHaveLength(1);
    // 1/0 is in three: its own, 3/0's and (wrapping) 3/1's.
    expect(chainsOf(idx, at('1/0')).map((s) => vidName(ring, s.head))).toEqual(['1/0', '3/0', '3/1']);
  });

  it('places node 4 where SHA-1 puts it', () => {
    expect(names(threeNodeRing(true), [...Array(8).keys()])).toEqual(['3/0', '1/0', '2/0', '4/0', '2/1', '1/1', '3/1', '4/1']);
  });
});

describe('short chains, small rings and the index', () => {
  it('reads padded rows as shorter chains, and no chains as none', () => {
    // R = 3 on two nodes: the core caps the chains at two members and pads the rest.
    const two = ringOf([[0, 0, 0.25], [1, 0, 0.75]], [['0/0', '1/0'], ['1/0', '0/0']]);
    const padded = { ...two, chainLength: 3, chains: Uint32Array.from([0, 1, 0xffffffff, 1, 0, 0xffffffff]) };
    expect(names(padded, chainFor(indexRing(padded), 0.5))).toEqual(['1/0', '0/0']);
    expect(chainsOf(indexRing(padded), 0).map((s) => s.role)).toEqual(['head', 'tail']);
    const none = { ...two, chainLength: 0, chains: new Uint32Array(0) };
    expect(chainsOf(indexRing(none), 0)).toEqual([]);
    const one = ringOf([[7, 0, 0.4]], [['7/0']]);
    expect(rangeWidth(rangeOf(one, 0).start, rangeOf(one, 0).end)).toBe(1);
    expect(nodeShares(one).get(7)).toEqual({ share: 1, vids: 1 });
    expect(chainsOf(indexRing(one), 0).map((s) => s.role)).toEqual(['only']);
    expect([roleAt(0, 1), roleAt(0, 3), roleAt(1, 3), roleAt(2, 3)]).toEqual(['only', 'head', 'mid', 'tail']);
  });

  it('on a hashed ring, slots and chains are the same relation, n × R pairs in all', () => {
    const ring = hashedRing(7, 5, 3);
    const idx = indexRing(ring);
    const n = ring.pos.length;
    const pairs = new Set<string>();
    for (let i = 0; i < n; i++) {
      for (const s of chainsOf(idx, i)) {
        expect(s.chain).toEqual(chainAt(ring, s.head));
        expect(s.chain[s.position]).toBe(i);
        pairs.add(`${s.head}:${i}`);
      }
    }
    for (let h = 0; h < n; h++) for (const m of chainAt(ring, h)) expect(pairs.has(`${h}:${m}`), `chain ${h} member ${m}`).toBe(true);
    expect(pairs.size).toBe(n * 3);
    const shares = [...nodeShares(ring).values()];
    expect(shares.reduce((a, s) => a + s.share, 0)).toBeCloseTo(1, 12);
    expect(shares.every((s) => s.vids === 5)).toBe(true);
  });
});
