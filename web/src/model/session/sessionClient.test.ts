// The session client over the inline transport and the real core (browser build, in Node):
// every session the core describes opens and ticks; a tick's chunked advance stops where the
// busy phase changes; column views come as typed arrays; operations and patches fail as values;
// dispose frees the session.
import { describe, expect, it } from 'vitest';
import { isCoreError } from '../core';
import { openSession } from './client';
import { defaultsOf, SESSIONS } from './schema';
import { testSession, testTransport } from './testSessions';

// The snapshot fields these tests read (the labs' full types live in web/src/labs/<id>/; model
// code does not import a lab).
type QueueSnapshot = { now_ns: number; counters: { completed: number } };
type FawndsSnapshot = { time_ns: number };
type FawndsOp = Record<string, unknown>;

describe('session client over the real core', () => {
  it('describes every lab\'s sessions, and each opens at its defaults and ticks', async () => {
    expect(SESSIONS.map((s) => s.id)).toEqual(expect.arrayContaining(['queues', 'devices.flash', 'devices.disk', 'fawnds', 'fawnkv']));
    for (const info of SESSIONS) {
      const s = await testSession(info.id, defaultsOf(info));
      const t = await s.tick({ dtNs: 1e6, maxEvents: 1e6 });
      expect(t.ok ? t.advancedNs : t.message).toBe(1e6);
      s.dispose();
    }
  });

  it('ticks a queue: advance, snapshot and counters in one reply; live fields change in place, others refuse', async () => {
    const s = await testSession<QueueSnapshot>('queues', { servers: 2, arrival_rate_per_s: 100000, service_us: 10 }, '4');
    const t = await s.tick({ dtNs: 5e6, maxEvents: 1e6 });
    if (!t.ok) throw new Error(t.message);
    expect(t.snapshot.now_ns).toBe(5e6);
    expect(t.snapshot.counters.completed).toBeGreaterThan(400);
    expect(t.events).toBeGreaterThan(800);
    expect(await s.reconfigure({ arrival_rate_per_s: 50000 })).toEqual({ ok: true });
    const bad = await s.reconfigure({ servers: 3 });
    expect(isCoreError(bad) && bad.message).toMatch(/servers/);
    s.dispose();
    const refused = await openSession('queues', { servers: 99 }, '1', await testTransport());
    expect(isCoreError(refused) && refused.message).toMatch(/out of range \[1, 16\]/);
    const unknown = await openSession('tape', {}, '1', await testTransport());
    expect(isCoreError(unknown)).toBe(true);
  });

  it('stops a chunked tick where a compaction takes its lock', async () => {
    // The lesson's compact-under-load, without its load.
    const s = await testSession<FawndsSnapshot, FawndsOp>('fawnds', { stores: 4, index_bits: 12, value_bytes: 256 }, '1');
    for (const op of [{ op: 'fill', count: 4000 }, { op: 'delete-many', count: 2000, step: 2 }] as FawndsOp[]) {
      const r = await s.apply(op);
      expect(r.ok ? 'ok' : r.message).toBe('ok');
    }
    const c = await s.apply({ op: 'compact', store: 1 });
    if (!c.ok) throw new Error(c.message);
    expect(c.busy).toBe(1);
    const t = await s.tick({ dtNs: 10e9, maxEvents: 5e6, chunkNs: 1e6 });
    if (!t.ok) throw new Error(t.message);
    expect(t.busyBefore).toBe(1);
    expect(t.busy).not.toBe(1);
    expect(t.advancedNs).toBeLessThan(10e9);
    expect(t.snapshot.time_ns).toBeLessThan(10e9);
    s.dispose();
  });

  it('fetches column views with a tick, and answers a bad view, operation or closed session with a value', async () => {
    const s = await testSession<FawndsSnapshot, unknown>('fawnds', { stores: 2 }, '1');
    await s.apply({ op: 'put', key: 'a', value: 'b' });
    const t = await s.tick({ dtNs: 0, maxEvents: 0, views: [{ name: 'log', args: { store: 0 }, key: 'l0' }, { name: 'log', args: { store: 1 }, key: 'l1' }, { name: 'nope' }] });
    if (!t.ok) throw new Error(t.message);
    const logs = [t.views.l0, t.views.l1] as Array<{ offsets: Uint32Array }>;
    expect(logs.every((l) => l.offsets instanceof Uint32Array)).toBe(true);
    expect(logs[0]!.offsets.length + logs[1]!.offsets.length).toBe(1);
    expect(isCoreError(t.views.nope)).toBe(true);
    const bad = await s.apply({ op: 'explode' });
    expect(isCoreError(bad) && bad.message).toMatch(/explode/);
    const transport = await testTransport();
    const open = (transport as unknown as { host: { size: number } }).host.size;
    s.dispose();
    expect(await s.step()).toEqual({ ok: false, code: 'unavailable', message: 'session closed' });
    await new Promise((r) => setTimeout(r, 0));
    expect((transport as unknown as { host: { size: number } }).host.size).toBe(open - 1);
  });
});
