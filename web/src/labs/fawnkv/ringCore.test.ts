// The ring model over the WASM core's own columns: the chains the view draws are the core's
// (fawnkv/ring.h's rule), inverted into the chains each VID sits in; a put's chain is one of
// them; after a failure the chains leave the failed node out, R capped at the nodes left.
import { describe, expect, it } from 'vitest';
import { isCoreError } from '../../model/core';
import type { FawnkvOp, FawnkvOpResult, FawnkvSnapshot, FawnkvVids } from './fawnkvTypes';
import { testSession } from '../../model/session/testSessions';
import { chainAt, chainsOf, indexRing, vidCount, vidName } from '../../viz/ringModel';

/** A cluster's ring after a put of "apple" (and, with `fail`, node `fail` failed and taken out). */
async function ringOfSession(nodes: number, replication: number, fail?: number): Promise<{ vids: FawnkvVids; putChain: string[] }> {
  const s = await testSession<FawnkvSnapshot, FawnkvOp, FawnkvOpResult>('fawnkv', { nodes, vids: 2, replication, preload: 0 }, '1');
  const r = await s.apply({ op: 'put', key: 'apple', value: 'red' });
  if (isCoreError(r)) throw new Error(r.message);
  if (fail !== undefined && isCoreError(await s.apply({ op: 'fail-node', id: fail }))) throw new Error('fail-node refused');
  // With a failure: missed heartbeats (3 × 500 ms), then the repair.
  const t = await s.tick({ dtNs: fail === undefined ? 0 : 5e9, maxEvents: 1e7, views: [{ name: 'vids' }] });
  if (!t.ok) throw new Error(t.message);
  const vids = t.views.vids!;
  if (isCoreError(vids)) throw new Error(vids.message);
  s.dispose();
  return { vids: vids as unknown as FawnkvVids, putChain: r.result.chain ?? [] };
}

describe('the ring from the core', () => {
  it('reads a chain of R distinct nodes per VID, clockwise from it, and inverts them', async () => {
    const { vids, putChain } = await ringOfSession(6, 3);
    const n = vidCount(vids);
    expect(n).toBe(12);
    expect(vids.chainLength).toBe(3);
    expect(vids.chains).toBeInstanceOf(Uint32Array);
    expect(vids.chains.length).toBe(n * 3);
    for (let h = 0; h < n; h++) {
      const chain = chainAt(vids, h);
      expect(chain[0]).toBe(h);
      expect(new Set(chain.map((i) => vids.node[i])).size).toBe(3);
      const off = chain.map((i) => (i - h + n) % n);
      expect([...off].sort((a, b) => a - b)).toEqual(off);
    }
    const ring = indexRing(vids);
    let pairs = 0;
    for (let i = 0; i < n; i++) {
      const slots = chainsOf(ring, i);
      expect(slots[0]).toMatchObject({ head: i, role: 'head' });
      for (const s of slots) expect(s.chain[s.position]).toBe(i);
      pairs += slots.length;
    }
    expect(pairs).toBe(n * 3);
    // The put's chain, as the core routed it, is the row of the VID owning the key.
    const rows = Array.from({ length: n }, (_, h) => chainAt(vids, h).map((i) => vidName(vids, i)).join(' '));
    expect(rows).toContain(putChain.join(' '));
  });

  it('after a failure, chains without the failed node, R capped at the back-ends left', async () => {
    const { vids } = await ringOfSession(3, 3, 1);
    expect([...new Set(vids.node)].sort()).toEqual([0, 2]);
    expect(vids.chains.length).toBe(vidCount(vids) * vids.chainLength);
    for (let h = 0; h < vidCount(vids); h++) expect(new Set(chainAt(vids, h).map((i) => vids.node[i]))).toEqual(new Set([vids.node[h], 2 - vids.node[h]!]));
  });
});
