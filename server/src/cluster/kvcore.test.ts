// The host loop (KvDriver) over the test-only fake node (kvhost.fake.ts): requests finish
// only through advance/outbox/deliver/timers, lost frames time out, stop settles everything.
import { describe, expect, it } from 'vitest';
import { createKvHostNode, KvDriver, type KvHostModule } from './kvcore.js';
import { fakeCluster, FakeKvHostNode } from './kvhost.fake.js';

const b = (s: string) => Buffer.from(s);

describe('KvDriver', () => {
  it('puts, gets, deletes and multigets through the outbox and timers', async () => {
    const c = await fakeCluster(3);
    try {
      expect((await c.front.put(b('k1'), b('v1'))).ok).toBe(true);
      expect((await c.front.put(b('k2'), b('v2'))).ok).toBe(true);
      const g = await c.front.get(b('k1'));
      expect([g.ok, g.found, g.value.toString()]).toEqual([true, true, 'v1']);
      expect(g.latencyNs).toBeGreaterThanOrEqual(FakeKvHostNode.delayNs);
      const m = await c.front.multiget([b('k2'), b('k2'), b('nope')]);
      expect(m.values.map((v) => [v.found, v.value.toString()])).toEqual([[true, 'v2'], [true, 'v2'], [false, '']]);
      expect((await c.front.del(b('k1'))).found).toBe(true);
      expect((await c.front.get(b('k1'))).found).toBe(false);
      const many = await Promise.all([...Array(200).keys()].map((i) => c.front.put(b(`key${i}`), b(String(i)))));
      expect(many.every((r) => r.ok)).toBe(true);
    } finally {
      c.stop();
    }
  });

  it('fails a request whose answer never comes, and drops its late answer', async () => {
    const c = await fakeCluster(1, { requestTimeoutMs: 50 });
    c.drop(0);
    const r = await c.front.get(b('x'));
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/no answer from the cluster within 50 ms/);
    c.stop();
  });

  it('fails a multiget when any key got no answer', async () => {
    const node = new FakeKvHostNode('{"role":"frontend"}');
    const d = new KvDriver(node, { send: () => {}, log: () => {} });
    node.takeDone = () => [{ req: 1, ok: true, found: false, value: new Uint8Array(), error: '', latencyNs: 5,
      values: [{ ok: true, found: true, value: new Uint8Array([1]) }, { ok: false, found: false, value: new Uint8Array() }] }];
    node.multiget = () => 1;
    const r = await d.multiget([b('a'), b('b')]);
    expect([r.ok, r.error]).toEqual([false, '1 of 2 keys got no answer']);
    d.stop();
  });

  it('logs frames the node refuses', async () => {
    const c = await fakeCluster(0);
    c.front.deliver(3, Buffer.from([1, 2]));
    expect(c.log.join()).toMatch(/dropped a frame from endpoint 3: bad magic/);
    expect((await c.front.get(b('k'))).error).toMatch(/no back-ends/);
    c.stop();
  });

  it('settles open requests when stopped', async () => {
    const c = await fakeCluster(1);
    c.drop(0);
    const p = c.front.put(b('k'), b('v'));
    c.stop();
    expect((await p).error).toMatch(/shutting down/);
    expect((await c.front.get(b('k'))).error).toMatch(/shutting down/);
  });

  it('wakes for the node\'s timers with no I/O', async () => {
    const node = new FakeKvHostNode('{"role":"backend"}');
    let fired = 0;
    (node as unknown as { timers: Array<{ at: number; run: () => void }> }).timers.push({ at: 30e6, run: () => fired++ });
    let now = 0;
    const d = new KvDriver(node, { send: () => {}, log: () => {}, nowNs: () => now });
    now = 40e6;
    await new Promise((r) => setTimeout(r, 80));
    expect(fired).toBe(1);
    d.stop();
  });
});

describe('createKvHostNode', () => {
  it('returns the node\'s own error for a bad config', () => {
    const mod: KvHostModule = { KvHostNode: FakeKvHostNode };
    const cfg = { role: 'nope', id: 0, dataDir: '', replicas: 1, vids: 1, fileBytes: 1, heartbeatMs: 1, missed: 1, cacheEntries: 0 };
    expect(createKvHostNode(mod, cfg as never)).toMatch(/role must be/);
    const throwing: KvHostModule = { KvHostNode: class { constructor() { throw new Error('bad dataDir'); } } as never };
    expect(createKvHostNode(throwing, { ...cfg, role: 'backend' })).toBe('bad dataDir');
    expect(typeof createKvHostNode(mod, { ...cfg, role: 'backend' })).toBe('object');
  });
});
