// The live-session client over the inline transport, with a fake core: one round trip per
// tick, the chunked advance stopping where busy() changes, views, ordering, errors as values,
// and dispose. (sessionClient.test.ts runs the same client over the real WASM core.)
import { describe, expect, it } from 'vitest';
import { advanceChunked } from './advance';
import { inlineTransport, openSession, type LiveSessionClient } from './client';
import { fakeOpen, type FakeLog } from './fakeCore';
import { transferablesOf } from './protocol';

async function open(log?: FakeLog): Promise<{ s: LiveSessionClient<{ time_ns: number }, { op: string }>; t: ReturnType<typeof inlineTransport> }> {
  const t = inlineTransport(fakeOpen(log));
  const s = await openSession<{ time_ns: number }, { op: string }>('fake', {}, '7', t);
  if ('ok' in s && s.ok === false) throw new Error(s.message);
  return { s: s as LiveSessionClient<{ time_ns: number }, { op: string }>, t };
}

describe('live-session client (inline, fake core)', () => {
  it('ticks: advance, snapshot, counters and views in one reply', async () => {
    const { s } = await open();
    const r = await s.tick({ dtNs: 1e6, maxEvents: 10, views: [{ name: 'ids', args: { n: 5 } }, { name: 'nope', key: 'x' }] });
    if (!r.ok) throw new Error(r.message);
    expect([r.advancedNs, r.events, r.busy, r.snapshot.time_ns]).toEqual([1e6, 1, 0, 1e6]);
    expect(r.views.ids).toEqual({ ids: Uint32Array.from([0, 1, 2, 3, 4]), count: 3 });
    expect(r.views.x).toEqual({ ok: false, code: 'not_found', message: "no view 'nope'" });
  });

  it('a tick planned for another phase than the session is in advances nothing (an operation ran it into an event)', async () => {
    const log: FakeLog = { deleted: 0, advances: [] };
    const { s } = await open(log);
    // Planned while the session was idle (phase 0), but the session is busy when the tick runs.
    await s.tick({ dtNs: 3.5e6, maxEvents: 1000 });
    const r = await s.tick({ dtNs: 10e6, maxEvents: 1000, chunkNs: 1e6, plannedBusy: 0 });
    if (!r.ok) throw new Error(r.message);
    expect([r.advancedNs, r.busyBefore, r.busy, r.snapshot.time_ns]).toEqual([0, 1, 1, 3.5e6]);
    // Planned for the phase it is in: it advances, stopping where the phase ends.
    const r2 = await s.tick({ dtNs: 10e6, maxEvents: 1000, chunkNs: 0.5e6, plannedBusy: 1 });
    expect(r2.ok && [r2.advancedNs, r2.busy]).toEqual([1.5e6, 0]);
  });

  it('advances in chunks and stops at the chunk where busy() changes', async () => {
    const log: FakeLog = { deleted: 0, advances: [] };
    const { s } = await open(log);
    const r = await s.tick({ dtNs: 10e6, maxEvents: 1000, chunkNs: 0.5e6 });
    if (!r.ok) throw new Error(r.message);
    expect(r.advancedNs).toBe(3e6);  // 20 chunks of 0.5 ms: the 6th turns busy
    expect(r.busy).toBe(1);
    expect(s.busy).toBe(1);
    expect(log.advances).toEqual(Array(6).fill(0.5e6));
    // Busy ends at 5 ms: the next tick stops there.
    const r2 = await s.tick({ dtNs: 10e6, maxEvents: 1000, chunkNs: 1e6 });
    expect(r2.ok && [r2.advancedNs, r2.busy]).toEqual([2e6, 0]);
    // Without chunkNs: one advance, whatever happens inside.
    const r3 = await s.tick({ dtNs: 10e6, maxEvents: 1000 });
    expect(r3.ok && r3.advancedNs).toBe(10e6);
  });

  it('keeps the order of requests and answers errors as values', async () => {
    const { s } = await open();
    const [a, b, c, d] = await Promise.all([
      s.apply({ op: 'put' }), s.apply({ op: 'explode' }), s.reconfigure({ rate: -1 }), s.tick({ dtNs: 0, maxEvents: 1 }),
    ]);
    expect(a).toMatchObject({ ok: true, result: { status: 'ok' }, version: 1 });
    expect(b).toEqual({ ok: false, code: 'invalid_argument', message: "unknown operation 'explode'" });
    expect(c).toEqual({ ok: false, code: 'invalid_argument', message: 'rate must be a number in [0, 10]' });
    expect(d.ok && d.version).toBe(1);
    expect(await s.columns({ name: 'ids' })).toEqual({ ids: Uint32Array.from([0, 1, 2]), count: 3 });
    expect(await s.step()).toEqual({ ok: true, ran: true });
  });

  it('refuses a bad session or config, and frees the session on dispose', async () => {
    const log: FakeLog = { deleted: 0, advances: [] };
    const t = inlineTransport(fakeOpen(log));
    expect(await openSession('nope', {}, '1', t)).toEqual({ ok: false, code: 'not_found', message: "no session 'nope'" });
    expect(await openSession('fake', { rate: -2 }, '1', t)).toMatchObject({ ok: false, message: 'rate must be a number in [0, 10]' });
    const s = await openSession('fake', { view: 'ignored' }, '1', t);
    if (!('tick' in s)) throw new Error(s.message);
    const pending = s.tick({ dtNs: 1, maxEvents: 1 });
    s.dispose();
    expect((await pending).ok).toBe(true);  // asked before dispose: answered
    expect(await s.tick({ dtNs: 1, maxEvents: 1 })).toEqual({ ok: false, code: 'unavailable', message: 'session closed' });
    await Promise.resolve();
    expect(t.host.size).toBe(0);
    expect(log.deleted).toBe(1);
  });

  it('lists the typed arrays of a reply as transferables', () => {
    const ids = new Uint32Array(4);
    const pos = new Float64Array(2);
    expect(transferablesOf({ ok: true, type: 'tick', advancedNs: 0, events: 0, busyBefore: 0, busy: 0, version: 0, snapshotJson: '{}',
      views: { a: { ids, pos, n: 3 }, b: { ok: false, code: 'x', message: 'y' } } })).toEqual([ids.buffer, pos.buffer]);
    expect(transferablesOf({ ok: true, type: 'columns', busy: 0, version: 0, columns: { ids } })).toEqual([ids.buffer]);
  });

  it('chunks like the auto clock: equal chunks, the event budget bounds the loop', () => {
    const advances: number[] = [];
    const s = { advance: (dt: number) => (advances.push(dt), 10), busy: () => 0 };
    expect(advanceChunked(s, 1e6, 25, 1e6 / 8)).toEqual({ advancedNs: 1e6, events: 30, busy: 0 });
    expect(advances).toEqual([125000, 125000, 125000]);
  });
});
