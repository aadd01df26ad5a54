// The FAWN-DS session through the browser build of the core and the session client:
// operations, the log and index as typed arrays, errors as values, crash and recovery, and the
// same run in the Node build.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isCoreError } from '../../model/core';
import type { FawndsIndexCells, FawndsLog, FawndsOp, FawndsOpResult, FawndsSnapshot } from './fawndsTypes';
import { FLAG_DELETE, STATE_MASK } from './fawndsTypes';
import { openSession, type LiveSessionClient } from '../../model/session/client';
import { testSession, testTransport } from '../../model/session/testSessions';
import { REPO } from '../../model/testCore';

type Session = LiveSessionClient<FawndsSnapshot, FawndsOp, FawndsOpResult>;
const session = (config = {}, seed = '1') => testSession<FawndsSnapshot, FawndsOp, FawndsOpResult>('fawnds', config, seed);

async function ok(s: Session, op: FawndsOp): Promise<FawndsOpResult> {
  const r = await s.apply(op);
  if (!r.ok) throw new Error(`${op.op}: ${r.message}`);
  return r.result;
}

async function snapshot(s: Session): Promise<FawndsSnapshot> {
  const t = await s.tick({ dtNs: 0, maxEvents: 0 });
  if (!t.ok) throw new Error(t.message);
  return t.snapshot;
}

async function log(s: Session, store: number): Promise<FawndsLog> {
  const l = await s.columns({ name: 'log', args: { store } });
  if (isCoreError(l)) throw new Error(l.message);
  return l as unknown as FawndsLog;
}

describe('fawnds session (browser build)', () => {
  it('appends a record per put and returns the log as typed arrays', async () => {
    const s = await session({ stores: 1, index_bits: 8 });
    await snapshot(s);
    const v0 = s.version;
    for (const k of ['apple', 'banana', 'cherry']) await ok(s, { op: 'put', key: k, value: 'v' });
    expect(s.version).toBeGreaterThan(v0);
    const l = await log(s, 0);
    expect(l.offsets).toBeInstanceOf(Uint32Array);
    expect(Array.from(l.offsets)).toEqual([0, 34, 68]);
    expect(l.counts).toEqual([3, 0, 0, 0, 0]);
    expect((await ok(s, { op: 'delete', key: 'banana' })).status).toBe('ok');
    const after = await log(s, 0);
    expect(after.counts).toEqual([2, 0, 2, 0, 0]);
    expect(after.flags[3]! & FLAG_DELETE).toBe(FLAG_DELETE);
    expect(after.flags[3]! & STATE_MASK).toBe(2);
    const g = await ok(s, { op: 'get', key: 'cherry' });
    expect(g.value).toBe('v');
    const snap = await snapshot(s);
    expect(snap.last_lookup?.key).toBe('cherry');
    expect(snap.last_lookup?.probes.at(-1)?.[5]).toBe('hit');
    const t = await s.tick({ dtNs: 0, maxEvents: 0, views: [{ name: 'index', args: { store: 0, first: 0, count: 256, group: 1 } }] });
    if (!t.ok) throw new Error(t.message);
    const cells = t.views.index as unknown as FawndsIndexCells;
    expect(Array.from(cells.valid).reduce((a, b) => a + b, 0)).toBe(2);
    s.dispose();
  });

  it('reports bad input as values with clear messages', async () => {
    const s = await session({ stores: 4 });
    const bad = async (op: unknown) => {
      const r = await s.apply(op as FawndsOp);
      return r.ok ? 'accepted' : r.message;
    };
    expect(await bad({ op: 'put', key: '' })).toMatch(/key must be 1 to 128 characters/);
    expect(await bad({ op: 'compact', store: 7 })).toMatch(/the node has 4 stores \(0–3\)/);
    expect(await bad({ op: 'split', store: 0, fraction: null })).toMatch(/strictly between 0 and 1/);
    const l = await s.columns({ name: 'log', args: { store: 9 } });
    expect(isCoreError(l) && l.message).toMatch(/no store 9/);
    const c = await openSession('fawnds', { stores: 40 }, '1', await testTransport());
    expect(isCoreError(c) && c.message).toMatch(/'stores' = 40 is out of range \[1, 16\]/);
    s.dispose();
  });

  it('loses unsynced writes in a crash and replays the log on recovery', async () => {
    const s = await session({ stores: 2 });
    await ok(s, { op: 'put', key: 'a', value: '1' });
    await ok(s, { op: 'sync' });
    await ok(s, { op: 'put', key: 'b', value: '2' });
    expect((await ok(s, { op: 'crash' })).lost_records).toBe(1);
    expect((await snapshot(s)).crashed).toBe(true);
    const r = await s.apply({ op: 'get', key: 'a' });
    expect(r.ok ? '' : r.message).toMatch(/crashed: recover it first/);
    expect((await ok(s, { op: 'recover' })).replayed_records).toBe(1);
    expect((await ok(s, { op: 'get', key: 'a' })).value).toBe('1');
    expect((await ok(s, { op: 'get', key: 'b' })).status).toBe('not_found');
    s.dispose();
  });

  it('runs the same in the Node build', async () => {
    const script: FawndsOp[] = [{ op: 'fill', count: 300 }, { op: 'compact', store: 1 }];
    const config = JSON.stringify({ stores: 3, load_rate_per_s: 400, load_keys: 300 });
    const s = await session(JSON.parse(config) as Record<string, unknown>, '7');
    for (const op of script) await ok(s, op);
    const web = await s.tick({ dtNs: 500e6, maxEvents: 5e6 });
    if (!web.ok) throw new Error(web.message);
    const require = createRequire(import.meta.url);
    const node = await (require(`${REPO}wasm-core/dist/fawnlab_node.cjs`) as () => Promise<{
      LabSession: new (id: string, c: string, seed: string) => { apply(o: string): { ok: boolean }; advance(dt: number, n: number): number; snapshot(): string; delete(): void };
    }>)();
    const n = new node.LabSession('fawnds', config, '7');
    for (const op of script) expect(n.apply(JSON.stringify(op)).ok).toBe(true);
    n.advance(500e6, 5e6);
    expect(JSON.parse(n.snapshot())).toEqual(web.snapshot);
    n.delete();
    s.dispose();
  });
});
