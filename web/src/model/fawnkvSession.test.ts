// The FAWN-KV session through the browser build of the core, against the page's contract
// (fawnkvTypes.ts). A core built before the session exists must say so plainly; the page
// shows that message.
import { describe, expect, it } from 'vitest';
import { isCoreError } from './core';
import { testCore } from './testCore';

describe('FawnkvSession (browser build)', () => {
  it('either runs the cluster by the contract or says this build has none', async () => {
    const core = await testCore();
    const s = core.createFawnkvSession({ nodes: 6, vids: 2, replication: 3, preload: 0 }, '1');
    if (isCoreError(s)) {
      expect(s.message).toMatch(/^this build of the core has no FawnkvSession/);
      return;
    }
    const vids = s.vids();
    if (isCoreError(vids)) throw new Error(vids.message);
    expect(vids.pos).toBeInstanceOf(Float64Array);
    expect(vids.pos.length).toBe(12);
    for (let i = 1; i < vids.pos.length; i++) expect(vids.pos[i]!).toBeGreaterThan(vids.pos[i - 1]!);
    const snap = s.snapshot();
    expect(snap.ring_version).toBe(vids.version);
    expect(snap.nodes.map((n) => n.state)).toEqual(Array(6).fill('up'));
    // A put's chain: R VIDs of the ring on distinct nodes, clockwise from the head.
    const r = s.apply({ op: 'put', key: 'apple', value: 'red' });
    if (isCoreError(r)) throw new Error(r.message);
    const names = Array.from(vids.pos, (_, i) => `${vids.node[i]}/${vids.index[i]}`);
    const at = r.result.chain!.map((v) => names.indexOf(v));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(new Set(at.map((i) => vids.node[i])).size).toBe(3);
    const off = at.map((i) => (i - at[0]! + names.length) % names.length);
    expect([...off].sort((a, b) => a - b)).toEqual(off);
    expect(r.result.latency_ns).toBeGreaterThan(0);
    const g = s.apply({ op: 'get', key: 'apple' });
    if (isCoreError(g)) throw new Error(g.message);
    expect(g.result.value).toBe('red');
    expect(s.apply({ op: 'fail-node', id: 99 }).ok).toBe(false);
    s.dispose();
  });
});
