// The log view's rows: ring order with a store being built right after its source, the
// maintenance's scan, lock and notes on the rows it touches, the last lookup's reads on its
// store only (none while crashed), and the logs' counts summed by state.
import { describe, expect, it } from 'vitest';
import type { FawndsStore } from './fawndsTypes';
import { fixtureLog, fixtureLookup } from './fawndsFixtures';
import { logRows, totalLogCounts, type RowsSnapshot } from './logRows';

function store(id: number, start: number, role: FawndsStore['role'] = 'serving'): FawndsStore {
  return {
    id, role, slot: id, file_offset: 0, log_end: 0, log_capacity: 1000 * (id + 1), records: 0, live: 0, lost: 0,
    index_bits: 4, buckets: 16, index_bytes: 96, checkpoints: 0,
    range: { start_hex: '', end_hex: '', start_frac: start, end_frac: start + 0.25, label: `(${start})` },
  };
}

const idle: RowsSnapshot['maintenance'] = {
  running: false, kind: '', source: -1, destination: -1, scanned: 0, source_end: 0, copied: 0, skipped: 0,
  locked: false, lock_hold_ns: 0, lock_started_ns: 0, started_ns: 0, queued: 0, last_result: '',
};

describe('logRows', () => {
  it('orders the stores around the ring and gives each its log, capacity and the page’s key names', () => {
    const a = fixtureLog([{ size: 49, state: 'live' }]);
    const names = new Map([[1, 'apple']]);
    const rows = logRows({ stores: [store(0, 0.5), store(1, 0), store(2, 0.25)], maintenance: idle, last_lookup: null, crashed: false },
      new Map([[2, a]]), names);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 0]);
    expect(rows.map((r) => r.capacity)).toEqual([2000, 3000, 1000]);
    expect(rows.map((r) => r.log)).toEqual([null, a, null]);
    expect(rows[0]!.names).toBe(names);
    expect(rows.every((r) => r.scan === undefined && r.locked === false && r.note === undefined && r.reads === undefined)).toBe(true);
  });

  it('marks a split: the source scanned and locked, the new store right after it, the destination locked', () => {
    const m = { ...idle, running: true, kind: 'split' as const, source: 1, destination: 3, scanned: 640, locked: true };
    const rows = logRows({
      stores: [store(0, 0), store(1, 0.5, 'source'), store(2, 0.75), store(3, 0, 'building')], maintenance: m, last_lookup: null, crashed: false,
    }, new Map(), new Map());
    expect(rows.map((r) => r.id)).toEqual([0, 1, 3, 2]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(1)).toMatchObject({ scan: 640, locked: true, note: 'split source' });
    expect(byId.get(3)).toMatchObject({ scan: undefined, locked: true, note: 'new store ← split of store 1' });
    expect(byId.get(0)).toMatchObject({ locked: false, note: undefined });
    // Unlocked, the same rows carry no lock.
    const open = logRows({ stores: [store(1, 0.5, 'source'), store(3, 0, 'building')], maintenance: { ...m, locked: false }, last_lookup: null, crashed: false },
      new Map(), new Map());
    expect(open.map((r) => r.locked)).toEqual([false, false]);
  });

  it('draws the last lookup’s reads on its own store, and none after a crash', () => {
    const stores = [store(0, 0), store(1, 0.5)];
    const lookup = fixtureLookup(1, 10);
    const rows = logRows({ stores, maintenance: idle, last_lookup: lookup, crashed: false }, new Map(), new Map());
    expect(rows[0]!.reads).toBeUndefined();
    expect(rows[1]!.reads).toEqual([{ offset: 147, falsePositive: true }, { offset: 245, falsePositive: false }]);
    const crashed = logRows({ stores, maintenance: idle, last_lookup: lookup, crashed: true }, new Map(), new Map());
    expect(crashed.map((r) => r.reads)).toEqual([undefined, undefined]);
  });
});

describe('totalLogCounts', () => {
  it('sums every log’s records by state', () => {
    const a = fixtureLog([{ size: 49, state: 'live' }, { size: 49, state: 'orphaned' }, { size: 49, state: 'live' }]);
    const b = fixtureLog([{ size: 49, state: 'deleted' }, { size: 49, state: 'lost' }]);
    expect(totalLogCounts([a, b])).toEqual([2, 1, 1, 0, 1]);
    expect(totalLogCounts([])).toEqual([0, 0, 0, 0, 0]);
  });
});
