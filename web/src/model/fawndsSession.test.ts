// The FAWN-DS session through the browser build of the core: operations, the log and index as
// typed arrays, errors as values, crash and recovery, and the same run in the Node build.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isCoreError, type LiveFawndsSession } from './core';
import type { FawndsOp } from './fawndsTypes';
import { FLAG_DELETE, STATE_MASK } from './fawndsTypes';
import { REPO, testCore } from './testCore';

async function session(config = {}, seed = '1'): Promise<LiveFawndsSession> {
  const core = await testCore();
  const s = core.createFawndsSession(config, seed);
  if (isCoreError(s)) throw new Error(s.message);
  return s;
}

function ok(s: LiveFawndsSession, op: FawndsOp) {
  const r = s.apply(op);
  if (!r.ok) throw new Error(`${op.op}: ${r.message}`);
  return r.result;
}

describe('FawndsSession (browser build)', () => {
  it('appends a record per put and returns the log as typed arrays', async () => {
    const s = await session({ stores: 1, index_bits: 8 });
    const v0 = s.version();
    for (const k of ['apple', 'banana', 'cherry']) ok(s, { op: 'put', key: k, value: 'v' });
    expect(s.version()).toBeGreaterThan(v0);
    const log = s.log(0);
    if (isCoreError(log)) throw new Error(log.message);
    expect(log.offsets).toBeInstanceOf(Uint32Array);
    expect(Array.from(log.offsets)).toEqual([0, 34, 68]);
    expect(log.counts).toEqual([3, 0, 0, 0, 0]);
    expect(ok(s, { op: 'delete', key: 'banana' }).status).toBe('ok');
    const after = s.log(0);
    if (isCoreError(after)) throw new Error(after.message);
    expect(after.counts).toEqual([2, 0, 2, 0, 0]);
    expect(after.flags[3]! & FLAG_DELETE).toBe(FLAG_DELETE);
    expect(after.flags[3]! & STATE_MASK).toBe(2);
    const g = ok(s, { op: 'get', key: 'cherry' });
    expect(g.value).toBe('v');
    const snap = s.snapshot();
    expect(snap.last_lookup?.key).toBe('cherry');
    expect(snap.last_lookup?.probes.at(-1)?.[5]).toBe('hit');
    const cells = s.index(0, 0, 256, 1);
    if (isCoreError(cells)) throw new Error(cells.message);
    expect(Array.from(cells.valid).reduce((a, b) => a + b, 0)).toBe(2);
    s.dispose();
  });

  it('reports bad input as values with clear messages', async () => {
    const s = await session({ stores: 4 });
    const bad = (op: unknown) => {
      const r = s.apply(op as FawndsOp);
      return r.ok ? 'accepted' : r.message;
    };
    expect(bad({ op: 'put', key: '' })).toMatch(/key must be 1 to 128 characters/);
    expect(bad({ op: 'compact', store: 7 })).toMatch(/the node has 4 stores \(0–3\)/);
    expect(bad({ op: 'split', store: 0, fraction: null })).toMatch(/strictly between 0 and 1/);
    const log = s.log(9);
    expect(isCoreError(log) && log.message).toMatch(/no store 9/);
    const core = await testCore();
    const c = core.createFawndsSession({ stores: 40 }, '1');
    expect(isCoreError(c) && c.message).toMatch(/'stores' = 40 is out of range \[1, 16\]/);
    s.dispose();
  });

  it('loses unsynced writes in a crash and replays the log on recovery', async () => {
    const s = await session({ stores: 2 });
    ok(s, { op: 'put', key: 'a', value: '1' });
    ok(s, { op: 'sync' });
    ok(s, { op: 'put', key: 'b', value: '2' });
    expect(ok(s, { op: 'crash' }).lost_records).toBe(1);
    expect(s.snapshot().crashed).toBe(true);
    const r = s.apply({ op: 'get', key: 'a' });
    expect(r.ok ? '' : r.message).toMatch(/crashed: recover it first/);
    expect(ok(s, { op: 'recover' }).replayed_records).toBe(1);
    expect(ok(s, { op: 'get', key: 'a' }).value).toBe('1');
    expect(ok(s, { op: 'get', key: 'b' }).status).toBe('not_found');
    s.dispose();
  });

  it('runs the same in the Node build', async () => {
    const script: FawndsOp[] = [{ op: 'fill', count: 300 }, { op: 'compact', store: 1 }];
    const config = JSON.stringify({ stores: 3, load_rate_per_s: 400, load_keys: 300 });
    const s = await session(JSON.parse(config), '7');
    for (const op of script) ok(s, op);
    s.advance(500e6, 5e6);
    const require = createRequire(import.meta.url);
    const node = await (require(`${REPO}wasm-core/dist/fawnlab_node.cjs`) as () => Promise<{
      FawndsSession: new (c: string, seed: string) => { apply(o: string): { ok: boolean }; advance(dt: number, n: number): number; snapshot(): string; delete(): void };
    }>)();
    const n = new node.FawndsSession(config, '7');
    for (const op of script) expect(n.apply(JSON.stringify(op)).ok).toBe(true);
    n.advance(500e6, 5e6);
    expect(JSON.parse(n.snapshot())).toEqual(s.snapshot());
    n.delete();
    s.dispose();
  });
});
