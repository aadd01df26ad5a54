// The FAWN-KV session through the browser build of the core and the session client, against
// the page's contract (fawnkvTypes.ts). The build must have it: a missing session fails here.
import { describe, expect, it } from 'vitest';
import type { FawnkvOp, FawnkvOpResult, FawnkvSnapshot, FawnkvVids } from './fawnkvTypes';
import { testSession } from '../../model/session/testSessions';

describe('fawnkv session (browser build)', () => {
  it('runs the cluster by the contract', async () => {
    const s = await testSession<FawnkvSnapshot, FawnkvOp, FawnkvOpResult>('fawnkv', { nodes: 6, vids: 2, replication: 3, preload: 0 }, '1');
    const t = await s.tick({ dtNs: 0, maxEvents: 0, views: [{ name: 'vids' }] });
    if (!t.ok) throw new Error(t.message);
    const vids = t.views.vids as unknown as FawnkvVids;
    expect(vids.pos).toBeInstanceOf(Float64Array);
    expect(vids.pos.length).toBe(12);
    for (let i = 1; i < vids.pos.length; i++) expect(vids.pos[i]!).toBeGreaterThan(vids.pos[i - 1]!);
    expect(t.snapshot.ring_version).toBe(vids.version);
    expect(t.snapshot.nodes.map((n) => n.state)).toEqual(Array(6).fill('up'));
    // A put's chain: R VIDs of the ring on distinct nodes, clockwise from the head.
    const r = await s.apply({ op: 'put', key: 'apple', value: 'red' });
    if (!r.ok) throw new Error(r.message);
    const names = Array.from(vids.pos, (_, i) => `${vids.node[i]}/${vids.index[i]}`);
    const at = r.result.chain!.map((v) => names.indexOf(v));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(new Set(at.map((i) => vids.node[i])).size).toBe(3);
    const off = at.map((i) => (i - at[0]! + names.length) % names.length);
    expect([...off].sort((a, b) => a - b)).toEqual(off);
    expect(r.result.latency_ns).toBeGreaterThan(0);
    const g = await s.apply({ op: 'get', key: 'apple' });
    if (!g.ok) throw new Error(g.message);
    expect(g.result.value).toBe('red');
    expect((await s.apply({ op: 'fail-node', id: 99 })).ok).toBe(false);
    s.dispose();
  });
});
