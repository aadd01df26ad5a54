/**
 * `cona` snapshots for the view's tests, in the pinned form (issue 16): a 4-level store at
 * B = 64 KB (297 entries of 20 + 200 B per buffer) with level 1's two cells merging into
 * level 2's shadow and a lookup of "alice" traced down to level 3; and the same store with its
 * frozen buffer waiting for a level-1 slot, a shadow done but not linked, and a flip just made.
 */
import type { OpArg, SessionInfo, SessionParam } from '../../model/session/schema';
import type { ParamValue } from '../../model/types';
import type { ConaCell, ConaSnapshot } from './conaTypes';

function cell(level: number, slot: number, entries: number, capacity: number, over: Partial<ConaCell> = {}): ConaCell {
  const block = level <= 1 ? 4 : level < 4 ? 16 : 64;
  const bpk = block === 4 ? 2.1 : block === 16 ? 0.78 : 0.46;
  const bits = level < 4 ? 16 : 0;
  return {
    level, slot, visible: slot < 2, entries, capacity, merged: entries,
    trie_bytes: Math.round(entries * bpk), fragment_bytes: (entries * bits) / 8, block, fragment_bits: bits, seq: level * 10 + slot,
    ...over,
  };
}

const ACTIVE_KEYS = [812, 3301, 7420, 9088, 15002, 19870, 24111, 30500, 33001, 40112, 47000, 51234, 58800, 63001];
const FROZEN_KEYS = Array.from({ length: 64 }, (_, i) => Math.round(((i + 0.5) * 65536) / 64) ^ (i % 7));

export function conaSnapshot(over: Partial<ConaSnapshot> = {}): ConaSnapshot {
  return {
    t_ns: 1_250_000_000,
    buffer_capacity: 297,
    levels: 4,
    entries: 297 * 2 + 594 + 1188 + 2376 + 120 + 297,
    buffers: [
      { role: 'active', entries: 120, keys: ACTIVE_KEYS },
      { role: 'frozen', entries: 297, waiting: false, keys: FROZEN_KEYS.slice().sort((a, b) => a - b) },
    ],
    cells: [
      cell(1, 0, 297, 297, { seq: 41 }),
      cell(1, 1, 297, 297, { seq: 42 }),
      cell(2, 0, 594, 594, { seq: 30 }),
      cell(2, 2, 594, 594, { visible: false, merged: 300, seq: 43 }),
      cell(3, 0, 1188, 1188, { seq: 20 }),
      cell(4, 0, 2376, 2376, { seq: 10 }),
    ],
    merge: { active: true, level: 1, moved: 300, total: 594 },
    counters: {
      puts: 5049, gets: 12, deletes: 1, hits: 10, misses: 2, flash_reads: 11, false_positives: 0, fragment_skips: 31,
      induces: 16, merges: 11, flips: 6, merge_moves: 14850, merge_steps_per_insert: 2.94, exposed_merge_ms: 0.82, merge_ms: 96.4,
      dram_bytes_per_key: 2.61, trie_bytes: 4071, fragment_bytes: 4158, buffer_bytes: 131072, store_write_amp: 3.94,
      ftl_write_amp: 1.12, write_iops: 151_000, read_iops: 19_800, cache_hit_ratio: 0.873,
    },
    last_lookup: {
      key: 'alice', found: true, latency_us: 96.5, flash_reads: 1,
      steps: [
        { level: 0, slot: 0, rank: 40, trie_symbols: 0, fragment: -1, flash_read: false, cache_hit: false, outcome: 0 },
        { level: 0, slot: 1, rank: 99, trie_symbols: 0, fragment: -1, flash_read: false, cache_hit: false, outcome: 0 },
        { level: 1, slot: 1, rank: 98, trie_symbols: 9, fragment: 0, flash_read: false, cache_hit: false, outcome: 0 },
        { level: 1, slot: 0, rank: 100, trie_symbols: 8, fragment: 0, flash_read: false, cache_hit: false, outcome: 0 },
        { level: 2, slot: 0, rank: 197, trie_symbols: 14, fragment: 0, flash_read: false, cache_hit: false, outcome: 0 },
        { level: 3, slot: 0, rank: 395, trie_symbols: 17, fragment: 1, flash_read: true, cache_hit: false, outcome: 1 },
      ],
    },
    events: [
      { t_ns: 1_100_000_000, kind: 'induce', level: 1 },
      { t_ns: 1_150_000_000, kind: 'merge_done', level: 2 },
      { t_ns: 1_151_000_000, kind: 'flip', level: 2 },
      { t_ns: 1_200_000_000, kind: 'induce', level: 1 },
      { t_ns: 1_200_000_000, kind: 'merge_start', level: 1 },
    ],
    ...over,
  };
}

/** The frozen buffer full and waiting, level 2's shadow done but not linked, a flip 1 ms ago, no lookup yet. */
export function waitingSnapshot(): ConaSnapshot {
  const s = conaSnapshot();
  return {
    ...s,
    t_ns: 1_500_000_000,
    buffers: [
      { role: 'active', entries: 297, keys: s.buffers[1]!.keys },
      { role: 'frozen', entries: 297, waiting: true, keys: s.buffers[1]!.keys },
    ],
    cells: s.cells.map((c) => (c.level === 2 && c.slot === 2 ? { ...c, merged: c.entries } : c)),
    merge: { active: false, level: 0, moved: 0, total: 0 },
    last_lookup: null,
    events: [...s.events, { t_ns: 1_499_000_000, kind: 'flip', level: 3 }],
  };
}

/** A store just opened: empty buffers, no levels. */
export function emptySnapshot(): ConaSnapshot {
  const s = conaSnapshot();
  return {
    ...s,
    t_ns: 0,
    levels: 0,
    entries: 0,
    buffers: [{ role: 'active', entries: 0, keys: [] }, { role: 'frozen', entries: 0, waiting: false, keys: [] }],
    cells: [],
    merge: { active: false, level: 0, moved: 0, total: 0 },
    counters: Object.fromEntries(Object.keys(s.counters).map((k) => [k, 0])) as unknown as ConaSnapshot['counters'],
    last_lookup: null,
    events: [],
  };
}

/** The `cona` session's schema as issue 16 pins it (the tests' stand-in until the core's sessions.json has it). */
export function conaSchema(): SessionInfo {
  const p = (name: string, type: SessionParam['type'], def: ParamValue, extra: Partial<SessionParam> = {}): SessionParam =>
    ({ name, type, default: def, help: `the ${name}`, unit: '', live: false, ...extra }) as SessionParam;
  const arg = (name: string, type: OpArg['type'], extra: Partial<OpArg> = {}): OpArg =>
    ({ name, type, default: type === 'string' ? '' : 0, help: `the ${name}`, unit: '', required: true, ...extra }) as OpArg;
  return {
    id: 'cona', lab: 'cona', view: '', title: 'CONA store', summary: 'A CONA store on emulated flash.', script: true, views: [],
    params: [
      p('buffer_kb', 'int', 64, { min: 8, max: 1024, unit: 'KB' }),
      p('trie', 'choice', 'mix', { choices: ['mix', '4', '16', '64'] }),
      p('fragments', 'choice', '16', { choices: ['16', 'off'] }),
      p('last_filter', 'choice', 'none', { choices: ['none', '8'] }),
      p('merge_thread', 'bool', true),
      p('workload', 'choice', 'insert', { choices: ['insert', 'a', 'b', 'c', 'd', 'f'] }),
      p('rate_ops_per_s', 'real', 2000, { min: 0, max: 1e6, unit: 'ops/s', live: true }),
      p('records', 'int', 0, { min: 0, max: 1e6 }),
    ],
    ops: [
      { name: 'put', help: 'put', args: [arg('key', 'string'), arg('value', 'string', { required: false })] },
      { name: 'get', help: 'get', args: [arg('key', 'string')] },
      { name: 'delete', help: 'delete', args: [arg('key', 'string')] },
      { name: 'fill', help: 'fill', args: [arg('count', 'int', { min: 1, max: 1e6 })] },
      { name: 'sync', help: 'sync', args: [] },
      { name: 'run_until', help: 'run until', args: [arg('event', 'choice', { choices: ['induce', 'merge_start', 'merge_done', 'flip'], default: 'merge_done' }), arg('max_s', 'real', { required: false, min: 0.001, max: 3600 })] },
      { name: 'crash', help: 'crash', args: [] },
      { name: 'recover', help: 'recover', args: [] },
    ],
  };
}
