// The status → view conversion: VID positions from 40-hex ids, ring order, back-ends, changes
// and events in words, and the bounded history of per-node throughput and latency.
import { describe, expect, it } from 'vitest';
import type { ClusterViewWire } from '@wire/cluster';
import { emptyClusterView } from '@wire/cluster.fake';
import { changeOf, ClusterHistory, eventText, hexToPos, joinsOf, ringNodes, ringToVids, viewOf } from './clusterView';

const hex = (top: string) => top.padEnd(40, '0');

const wire = (o: Partial<ClusterViewWire> = {}): ClusterViewWire => ({
  ...emptyClusterView(),
  nodes: [
    { id: -1, role: 'frontend', state: 'up', addr: '127.0.0.1:8200' },
    { id: 0, role: 'backend', state: 'up', process: 'running', pid: 11, servedPerS: 120, vids: 2, latencyMs: { p50: 0.8, p99: 4.5, n: 60 } },
    { id: 1, role: 'backend', state: 'failed', process: 'killed', pid: null, servedPerS: 0, vids: 2 },
    { id: 2, role: 'backend', state: 'unknown', process: 'running', pid: 13 },
  ],
  ...o,
});

describe('ring positions', () => {
  it('takes the top 53 bits of the id over 2^53', () => {
    expect(hexToPos(hex('8'))).toBe(0.5);
    expect(hexToPos(hex('4'))).toBe(0.25);
    expect(hexToPos('f'.repeat(40))).toBe((2 ** 53 - 1) / 2 ** 53);
    expect(hexToPos(hex('00000000000007'))).toBe(0); // the bits after the 53rd are cut
    expect(hexToPos('00000000000008' + '0'.repeat(26))).toBe(1 / 2 ** 53);
    expect(hexToPos('nothex')).toBeNaN();
  });

  it('builds the ring columns in ring order, skipping what is not a VID', () => {
    const v = ringToVids([
      { vid: hex('C'), node: 1, index: 0 }, { vid: hex('4'), node: 0, index: 1 }, { vid: hex('8'), node: 2, index: 0 },
      { vid: 'zz', node: 3, index: 0 }, { vid: hex('2'), node: -1 } as never,
    ], [], 7);
    expect([...v.pos]).toEqual([0.25, 0.5, 0.75]);
    expect([...v.node]).toEqual([0, 2, 1]);
    expect([...v.index]).toEqual([1, 0, 0]);
    expect(v.version).toBe(7);
    expect(ringToVids(undefined as never).pos.length).toBe(0);
  });

  it('takes the front-end\'s chains as rows of VID indices, each back-end at its first VID from the head on', () => {
    // VIDs 0/0 1/0 0/1 2/0 at 1/8, 3/8, 5/8, 7/8; the chain of 1/0's range is nodes 1, 0, 2 (0 at 0/1, after 1/0).
    const ring = [['2', 0, 0], ['6', 1, 0], ['a', 0, 1], ['e', 2, 0]].map(([h, node, index]) => ({ vid: hex(h as string), node: node as number, index: index as number }));
    const chains = [
      { range: [hex('2'), hex('6')] as [string, string], chain: [1, 0, 2], epoch: 1, reader: 2 },
      { range: [hex('a'), hex('E')] as [string, string], chain: [2, 0], epoch: 1, reader: 0 },   // upper-case hex, a chain one short
      { range: [hex('0'), hex('1')] as [string, string], chain: [0], epoch: 1, reader: 0 },      // ends at no VID: skipped
    ];
    const v = ringToVids(ring, chains);
    expect(v.chainLength).toBe(3);
    const row = (i: number) => [...v.chains.subarray(i * 3, i * 3 + 3)];
    expect(row(1)).toEqual([1, 2, 3]);
    expect(row(3)).toEqual([3, 0, 0xffffffff]);
    expect(row(0)).toEqual([0xffffffff, 0xffffffff, 0xffffffff]);
  });
});

describe('the view', () => {
  it('lists back-ends with their states and processes, and maps states for the ring', () => {
    const v = viewOf(wire({ events: [{ tNs: 2_500_000_000, text: 'node 1 failed: 3 heartbeats missed' }, { kind: 'join', node: 4, phase: 'done' }] }));
    expect(v.frontEnd?.addr).toBe('127.0.0.1:8200');
    expect(v.backends.map((b) => [b.id, b.state, b.process, b.servedPerS])).toEqual([[0, 'up', 'running', 120], [1, 'failed', 'killed', 0], [2, 'unknown', 'running', 0]]);
    expect(v.backends.map((b) => [b.p50Ms, b.p99Ms])).toEqual([[0.8, 4.5], [null, null], [null, null]]);
    expect(ringNodes(v.backends)).toEqual([{ id: 0, state: 'up' }, { id: 1, state: 'failed' }, { id: 2, state: 'gone' }]);
    expect(ringNodes([{ ...v.backends[0]!, state: 'recovering' }])).toEqual([{ id: 0, state: 'joining' }]);
    expect(v.events).toEqual(['2.50 s  node 1 failed: 3 heartbeats missed', 'join node 4 — done']);
    expect(v.replicas).toBe(3);
  });

  it('says what a membership change does, and draws joins on the ring', () => {
    const c = changeOf({ range: [hex('4'), hex('8')], phase: 'precopy', oldChain: [1, 2, 3], newChain: [1, 4, 3], joiner: 4, donor: 2 });
    expect(c.text).toBe('range (4000…, 8000…]: node 4 joins, copying from node 2 — precopy; chain 1 → 2 → 3 becomes 1 → 4 → 3');
    const repair = changeOf({ range: [hex('8'), hex('4')], phase: 'repair', oldChain: [1, 2], newChain: [2, 3], joiner: -1, donor: 2 });
    expect(repair.text).toBe('range (8000…, 4000…]: repair from node 2 — repair; chain 1 → 2 becomes 2 → 3');
    expect(joinsOf([c, repair])).toEqual([{ node: 4, vid: 'node 4', start: 0.25, end: 0.5, role: 'tail', donor: 2, phase: 'precopy', copied_bytes: 0, total_bytes: 0 }]);
    expect(changeOf({ kind: 'leave', node: 3, phase: 'final' }).text).toBe('leave of node 3 — final');
    expect(changeOf(null).text).toBe('range a range: repair — ?');
    expect(eventText(42)).toBe('42');
  });
});

describe('ClusterHistory', () => {
  const client = (ops: number, p50: number, p99: number, errors = 0) => ({ seconds: 0.5, ops: { get: ops, put: 0, del: 0, multiget: 0 }, errors, latencyMs: { p50, p99, max: p99 }, perNode: {} });

  it('keeps per-node rates and latency against seconds since the first status', () => {
    const h = new ClusterHistory();
    expect(h.push(wire({ timeMs: 10_000 }), client(100, 1.5, 4))).toBe(true);
    expect(h.push(wire({ timeMs: 10_500 }), client(0, 0, 0))).toBe(true);
    const s = h.samples();
    expect(s.map((x) => x.t)).toEqual([0, 0.5]);
    expect([...s[0]!.perNode]).toEqual([[0, 120], [1, 0], [2, 0]]);
    expect([s[0]!.p50, s[0]!.p99, s[0]!.opsPerS]).toEqual([1.5, 4, 100]);
    expect([s[1]!.p50, s[1]!.p99]).toEqual([null, null]); // nothing finished: a gap, not a zero
    expect(h.nodeIds()).toEqual([0, 1, 2]);
  });

  it('is bounded, ignores untimed or repeated statuses, and restarts when time jumps back', () => {
    const h = new ClusterHistory(3);
    for (let i = 0; i < 5; i++) h.push(wire({ timeMs: 1000 * i }), client(1, 1, 1));
    expect(h.samples().map((x) => x.t)).toEqual([2, 3, 4]);
    expect(h.push(wire({ timeMs: undefined as never }), undefined)).toBe(false);
    expect(h.push(wire({ timeMs: 4000 }), undefined)).toBe(false);
    expect(h.push(wire({ timeMs: 3500 }), undefined)).toBe(false); // reordered: dropped
    expect(h.push(wire({ timeMs: -100_000 }), undefined)).toBe(true); // the front-end restarted
    expect(h.samples().map((x) => x.t)).toEqual([0]);
  });
});
