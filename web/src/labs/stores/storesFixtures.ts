/**
 * `stores` snapshots for the view's tests, in the pinned form (issue 17): all six stores after
 * a few seconds of YCSB A at 2,000 ops/s over 2,000 preloaded records, CONA mid-merge, SILT
 * converting its log, the LSM compacting L1 with L0 over its trigger, the B+tree's pool part
 * dirty, a get of "alice" found in every store; an empty session (nothing stored yet); and the
 * session's schema as the issue pins it (the tests' stand-in until the core's sessions.json has it).
 */
import type { OpArg, SessionInfo, SessionParam } from '../../model/session/schema';
import type { ParamValue } from '../../model/types';
import type { StoreRow, StoresSnapshot, StoreStructure } from './storesTypes';

function row(kind: string, label: string, over: Partial<StoreRow>, structure: StoreStructure): StoreRow {
  return {
    kind, label, ops: 9_000, queued: 0, reads: 4_500, writes: 4_500 + 2_000,
    write_iops: 100_000, read_iops: 20_000, read_p50_us: 90, read_p99_us: 250, write_p50_us: 6, write_p99_us: 40,
    dram_bytes: 12_000, dram_bytes_per_key: 1.7, lookup_reads_per_get: 1.0, store_wa: 4, ftl_wa: 1.1,
    joules_per_op: 4e-6, stall_pct: 0, background_busy_pct: 10, ...over, structure,
  };
}

export function storesSnapshot(over: Partial<StoresSnapshot> = {}): StoresSnapshot {
  return {
    t_ns: 4_500_000_000,
    workload: 'a',
    ops_offered: 9_000,
    stores: [
      row('cona', 'CONA', { write_iops: 151_000, read_iops: 19_800, read_p50_us: 96.5, read_p99_us: 310, dram_bytes_per_key: 1.72, store_wa: 3.9, ftl_wa: 1.12, joules_per_op: 3.1e-6, background_busy_pct: 14 }, {
        type: 'cona', buffer_capacity: 297, buffers: [120, 297],
        levels: [
          { level: 1, cells: [{ slot: 0, visible: true, entries: 297, capacity: 297, merged: 297 }, { slot: 1, visible: true, entries: 297, capacity: 297, merged: 297 }] },
          { level: 2, cells: [{ slot: 0, visible: true, entries: 594, capacity: 594, merged: 594 }, { slot: 2, visible: false, entries: 594, capacity: 594, merged: 300 }] },
          { level: 3, cells: [{ slot: 0, visible: true, entries: 1188, capacity: 1188, merged: 1188 }] },
          { level: 4, cells: [{ slot: 0, visible: true, entries: 2376, capacity: 2376, merged: 2376 }] },
        ],
        merging: true, merge_level: 1,
      }),
      row('cona-1t', 'CONA (one thread)', { write_iops: 88_000, read_iops: 19_500, write_p99_us: 9_800, stall_pct: 31.5, background_busy_pct: 0 }, {
        type: 'cona', buffer_capacity: 297, buffers: [40, 0],
        levels: [
          { level: 1, cells: [{ slot: 0, visible: true, entries: 297, capacity: 297, merged: 297 }] },
          { level: 2, cells: [] },
          { level: 3, cells: [{ slot: 0, visible: true, entries: 1188, capacity: 1188, merged: 1188 }, { slot: 1, visible: true, entries: 1188, capacity: 1188, merged: 1188 }] },
        ],
        merging: false, merge_level: 0,
      }),
      row('silt', 'SILT', { write_iops: 60_400, read_iops: 6_800, read_p50_us: 160, read_p99_us: 420, dram_bytes_per_key: 0.71, store_wa: 5.2, joules_per_op: 6.2e-6, background_busy_pct: 38, queued: 12 }, {
        type: 'silt', log: { entries: 700, capacity: 1024 },
        hash_stores: [{ entries: 952, capacity: 1024 }, { entries: 951, capacity: 1024 }, { entries: 950, capacity: 1024 }],
        sorted: { entries: 4_100 }, converting: true, merging: false,
      }),
      row('lsm', 'LSM (LevelDB’s image)', { write_iops: 53_900, read_iops: 17_400, lookup_reads_per_get: 1.3, store_wa: 11.4, dram_bytes_per_key: 1.45, stall_pct: 4.2, background_busy_pct: 52 }, {
        type: 'lsm', memtable: { bytes: 180_000, capacity: 262_144 }, immutable: true,
        levels: [
          { level: 0, files: 5, bytes: 1_150_000, target_bytes: 0 },
          { level: 1, files: 4, bytes: 1_300_000, target_bytes: 1_048_576 },
          { level: 2, files: 3, bytes: 2_400_000, target_bytes: 10_485_760 },
        ],
        compacting: 1,
      }),
      row('fawnds', 'FAWN-DS', { write_iops: 210_000, read_iops: 21_000, dram_bytes_per_key: 6, store_wa: 1.05, ftl_wa: 1.0, background_busy_pct: 0 }, {
        type: 'fawnds', log_bytes: 2_100_000, log_capacity: 8_388_608, index_buckets: 16_384, index_used: 6_500, garbage_bytes: 450_000,
      }),
      row('btree', 'B+tree', { write_iops: 9_100, read_iops: 12_000, lookup_reads_per_get: 2.4, store_wa: 18.6, ftl_wa: 1.9, dram_bytes_per_key: 3.1, joules_per_op: 2.2e-5, background_busy_pct: 0, queued: 1_840 }, {
        type: 'btree', height: 3, leaves: 212, internals: 4, pool_pages: 64, pool_dirty: 19,
      }),
    ],
    last_get: {
      key: 'alice',
      per_store: [
        { kind: 'cona', found: true, latency_us: 96.5, device_reads: 1 },
        { kind: 'cona-1t', found: true, latency_us: 97.1, device_reads: 1 },
        { kind: 'silt', found: true, latency_us: 171, device_reads: 1 },
        { kind: 'lsm', found: true, latency_us: 203, device_reads: 2 },
        { kind: 'fawnds', found: true, latency_us: 88, device_reads: 1 },
        { kind: 'btree', found: true, latency_us: 310, device_reads: 3 },
      ],
    },
    events: [
      { t_ns: 4_100_000_000, kind: 'flush', store: 'lsm', detail: 'memtable → L0 file 12 (240 KB)' },
      { t_ns: 4_200_000_000, kind: 'merge', store: 'cona', detail: 'L1 → L2 shadow' },
      { t_ns: 4_300_000_000, kind: 'compaction', store: 'lsm', detail: 'L1 → L2: 4 files' },
      { t_ns: 4_400_000_000, kind: 'conversion', store: 'silt', detail: 'log → hash store 4' },
      { t_ns: 4_450_000_000, kind: 'flip', store: 'cona', detail: 'L2' },
    ],
    ...over,
  };
}

/** A session just opened with CONA, SILT and the LSM (the defaults) and nothing stored yet. */
export function emptyStoresSnapshot(): StoresSnapshot {
  const s = storesSnapshot();
  const zero = (r: StoreRow): StoreRow => ({
    ...r, ops: 0, queued: 0, reads: 0, writes: 0, write_iops: 0, read_iops: 0, read_p50_us: 0, read_p99_us: 0, write_p50_us: 0, write_p99_us: 0,
    dram_bytes: 0, dram_bytes_per_key: 0, lookup_reads_per_get: 0, store_wa: 0, ftl_wa: 0, joules_per_op: 0, stall_pct: 0, background_busy_pct: 0,
  });
  const byKind = (k: string) => s.stores.find((r) => r.kind === k)!;
  return {
    t_ns: 0, workload: 'load', ops_offered: 0, last_get: null, events: [],
    stores: [
      zero({ ...byKind('cona'), structure: { type: 'cona', buffer_capacity: 297, buffers: [0, 0], levels: [], merging: false, merge_level: 0 } }),
      zero({ ...byKind('silt'), structure: { type: 'silt', log: { entries: 0, capacity: 1024 }, hash_stores: [], sorted: { entries: 0 }, converting: false, merging: false } }),
      zero({ ...byKind('lsm'), structure: { type: 'lsm', memtable: { bytes: 0, capacity: 262_144 }, immutable: false, levels: [], compacting: -1 } }),
    ],
  };
}

/** The `stores` session's schema as issue 17 pins it. */
export function storesSchema(): SessionInfo {
  const p = (name: string, type: SessionParam['type'], def: ParamValue, extra: Partial<SessionParam> = {}): SessionParam =>
    ({ name, type, default: def, help: `the ${name}`, unit: '', live: false, ...extra }) as SessionParam;
  const arg = (name: string, type: OpArg['type'], extra: Partial<OpArg> = {}): OpArg =>
    ({ name, type, default: type === 'string' ? '' : 0, help: `the ${name}`, unit: '', required: true, ...extra }) as OpArg;
  return {
    id: 'stores', lab: 'stores', view: '', title: 'Stores side by side', summary: 'Several key-value stores on one device under one YCSB stream.', script: true, views: [],
    params: [
      p('cona', 'bool', true), p('cona_1t', 'bool', false), p('silt', 'bool', true), p('lsm', 'bool', true), p('fawnds', 'bool', false), p('btree', 'bool', false),
      p('workload', 'choice', 'load', { choices: ['load', 'a', 'b', 'c', 'd', 'e', 'f'], live: true }),
      p('device', 'choice', 'crucial-m500', { choices: ['crucial-m500', 'intel-x25m', 'fawn-cf'] }),
      p('host', 'choice', 'laptop', { choices: ['laptop', 'fawn', 'server'] }),
      p('records', 'int', 2000, { min: 0, max: 1_000_000, unit: 'records' }),
      p('rate_ops_per_s', 'real', 2000, { min: 1, max: 1e6, unit: 'ops/s', live: true }),
      p('bloom_bits', 'int', 10, { min: 0, max: 20, unit: 'bits/key' }),
      p('scale', 'real', 0.001, { min: 1e-5, max: 0.01 }),
      p('max_writes', 'int', 200_000, { min: 1000, max: 2_000_000, unit: 'writes' }),
    ],
    ops: [
      { name: 'put', help: 'put', args: [arg('key', 'string'), arg('value', 'string', { required: false })] },
      { name: 'get', help: 'get', args: [arg('key', 'string', { required: false }), arg('record', 'int', { required: false, min: 0, max: 4e6 })] },
      { name: 'fill', help: 'fill', args: [arg('count', 'int', { min: 1, max: 1e6 })] },
      { name: 'run_until', help: 'run until', args: [arg('ops', 'int', { min: 1, max: 1e7 })] },
    ],
  };
}
