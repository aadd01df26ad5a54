import { describe, expect, it } from 'vitest';
import { emptyStoresSnapshot, storesSnapshot } from './storesFixtures';
import type { StoreStructure } from './storesTypes';
import { backgroundLine, chosenStores, COUNTERS, describeResult, eventLines, getRows, getTitle, loadLine, setupSummary, structureSummary } from './storesReadout';

const byKind = (kind: string) => storesSnapshot().stores.find((s) => s.kind === kind)!;
const counter = (id: string) => COUNTERS.find((c) => c.id === id)!;

describe('the counters', () => {
  it('cover the issue\'s quantities, each with a unit', () => {
    const ids = COUNTERS.map((c) => c.id);
    for (const id of ['write_iops', 'read_iops', 'read_p50_us', 'read_p99_us', 'write_p50_us', 'write_p99_us', 'dram_bytes_per_key',
      'lookup_reads_per_get', 'store_wa', 'ftl_wa', 'uj_per_op', 'stall_pct', 'queued']) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('format each store\'s values, joules per op in µJ', () => {
    expect(counter('write_iops').value(byKind('cona'))).toBe('151k');
    expect(counter('uj_per_op').value(byKind('cona'))).toBe('3.1');
    expect(counter('dram_bytes_per_key').value(byKind('silt'))).toBe('0.71');
    expect(counter('stall_pct').value(byKind('cona-1t'))).toBe('31.5');
    expect(counter('dram_bytes').value(byKind('cona'))).toBe('11.7');
  });

  it('show a dash for what has not been measured yet (no reads: no read latency)', () => {
    const r = emptyStoresSnapshot().stores[0]!;
    expect(counter('read_p99_us').value(r)).toBe('—');
    expect(counter('store_wa').value(r)).toBe('—');
    expect(counter('ops').value(r)).toBe('0');
  });
});

describe('structureSummary', () => {
  it('says each store\'s structure in one sentence', () => {
    expect(structureSummary(byKind('cona').structure)).toBe('Buffers 120 and 297 of 297 entries; 4 levels (L1: 2 cells, L2: 1 cell, L3: 1 cell, L4: 1 cell), merging at L1.');
    expect(structureSummary(byKind('silt').structure)).toBe('LogStore 700 of 1024 entries; 3 HashStores (2853 entries); SortedStore 4100 entries; converting the log into a hash store.');
    expect(structureSummary({ ...byKind('silt').structure, frozen_log: { entries: 1000, capacity: 1024 } } as StoreStructure)).toMatch(/^LogStore 700 of 1024 entries \(and a frozen one of 1000\); /);
    expect(structureSummary(byKind('lsm').structure)).toContain('an immutable one flushing; L0: 5 files, 1.1 MB; L1: 4 files, 1.24 MB of 1 MB;');
    expect(structureSummary(byKind('lsm').structure)).toMatch(/compacting L1 into L2\.$/);
    expect(structureSummary(byKind('fawnds').structure)).toBe('Log 2 MB of 8 MB (439 KB garbage); hash index 6500 of 16.4k buckets used.');
    expect(structureSummary(byKind('btree').structure)).toBe('Height 3: 4 internal pages, 212 leaves; buffer pool 64 pages, 19 dirty.');
    expect(structureSummary({ type: 'skiplist', nodes: 3, busy: true })).toBe('A skiplist store: nodes 3, busy true.');
  });

  it('names the background work', () => {
    expect(backgroundLine(byKind('cona').structure)).toBe('merging at L1');
    expect(backgroundLine(byKind('lsm').structure)).toBe('flushing memtable, compacting L1 → L2');
    expect(backgroundLine(byKind('fawnds').structure)).toBe('');
  });
});

describe('the get, the events, the setup, the results', () => {
  it('reads the last get per store', () => {
    const rows = getRows(storesSnapshot());
    expect(rows).toHaveLength(6);
    expect(rows[3]).toEqual({ kind: 'lsm', label: 'LSM (LevelDB’s image)', found: 'found', latency: '203', reads: '2' });
    expect(getTitle(storesSnapshot())).toBe('get “alice”: found in every store; fastest FAWN-DS (88 µs)');
    expect(getRows(emptyStoresSnapshot())).toEqual([]);
  });

  it('lists events newest first with the store\'s name', () => {
    const lines = eventLines(storesSnapshot());
    expect(lines[0]!.text).toBe('4.45 s · CONA: flip L2');
    expect(lines[4]!.text).toBe('4.1 s · LSM (LevelDB’s image): flush memtable → L0 file 12 (240 KB)');
    // A detail that names its kind already is not prefixed again (the session's "flush #46 (level-0 files 1)").
    const own = storesSnapshot({ events: [{ t_ns: 1e9, kind: 'flush', store: 'lsm', detail: 'flush #46 (level-0 files 1)' },
      { t_ns: 2e9, kind: 'compaction', store: 'lsm', detail: 'LSM (LevelDB’s image): compaction #192 (level-0 files 0)' }] });
    expect(eventLines(own).map((l) => l.text)).toEqual(['2 s · LSM (LevelDB’s image): compaction #192 (level-0 files 0)', '1 s · LSM (LevelDB’s image): flush #46 (level-0 files 1)']);
  });

  it('sums the setup and the load', () => {
    const c = { cona: true, cona_1t: false, silt: true, lsm: true, fawnds: false, btree: false, workload: 'a', device: 'crucial-m500', host: 'laptop', records: 2000 };
    expect(chosenStores(c)).toEqual(['cona', 'silt', 'lsm']);
    expect(setupSummary(c)).toBe('CONA, SILT and the LSM · YCSB A · on crucial-m500 · laptop host · 2000 records preloaded');
    expect(setupSummary({ ...c, cona: false, silt: false, lsm: false })).toMatch(/^no store chosen/);
    expect(loadLine(storesSnapshot())).toBe('9000 operations offered to each store (YCSB A); behind: SILT (12 waiting), B+tree (1840 waiting).');
    const left = storesSnapshot({ keys: 11_000, skipped: [{ kind: 'silt', reason: 'silt: not built yet' }] });
    left.stores = left.stores.map((r) => ({ ...r, queued: 0 }));
    expect(loadLine(left)).toBe('9000 operations offered to each store (YCSB A, 11k keys in each); every store keeps up. Left out: silt: not built yet.');
  });

  it('says what an operation did', () => {
    expect(describeResult({ op: 'fill', count: 500 }, { count: 500 })).toBe('filled 500 new records into every store');
    expect(describeResult({ op: 'put', key: 'k', value: 'v' }, {})).toBe('put “k” into every store');
  });
});
