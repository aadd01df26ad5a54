/**
 * The Stores snapshot as text: the counters as the rows of one table with a column per store
 * (quantity, unit, one value per store, in groups), each store's structure in one sentence (its
 * canvas's accessible name and the line under it), the last get per store, the recent events,
 * the setup in one line and each operation's result. Pure functions; structures are read
 * loosely (a missing field reads as 0, a type this page does not know as its fields).
 */
import { fmt, fmtNs } from '../../viz/format';
import type { StoreRow, StoresConfig, StoresEvent, StoresOp, StoresOpResult, StoresSnapshot, StoreStructure } from './storesTypes';
import { STORE_PARAMS } from './storesTypes';

export interface CounterSpec {
  /** Stable id (data-counter in the page). */
  id: string;
  group: string;
  label: string;
  unit: string;
  value: (r: StoreRow) => string;
  /** What the quantity is, for a tooltip. */
  help?: string;
}

/** A number or '—' when the session has not measured it yet (no reads: no read latency). */
const val = (v: number | undefined, digits = 3) => (typeof v === 'number' && Number.isFinite(v) ? fmt(v, digits) : '—');
const measured = (v: number | undefined, n: number) => (n > 0 ? val(v) : '—');

export const COUNTERS: CounterSpec[] = [
  { id: 'ops', group: 'throughput', label: 'operations served', unit: 'ops', value: (r) => val(r.ops) },
  { id: 'queued', group: 'throughput', label: 'waiting (queued)', unit: 'ops', value: (r) => val(r.queued),
    help: 'The same stream is offered to every store at the set rate; a store that cannot keep up builds a queue' },
  { id: 'write_iops', group: 'throughput', label: 'write IOPS', unit: 'ops/s', value: (r) => measured(r.write_iops, r.writes),
    help: 'Writes per second of time spent writing, as the CONA thesis reports it (Figs 3.46, 3.47)' },
  { id: 'read_iops', group: 'throughput', label: 'read IOPS', unit: 'ops/s', value: (r) => measured(r.read_iops, r.reads),
    help: 'Reads per second of time spent reading' },
  { id: 'read_p50_us', group: 'latency', label: 'read p50', unit: 'µs', value: (r) => measured(r.read_p50_us, r.reads) },
  { id: 'read_p99_us', group: 'latency', label: 'read p99', unit: 'µs', value: (r) => measured(r.read_p99_us, r.reads) },
  { id: 'write_p50_us', group: 'latency', label: 'write p50', unit: 'µs', value: (r) => measured(r.write_p50_us, r.writes) },
  { id: 'write_p99_us', group: 'latency', label: 'write p99', unit: 'µs', value: (r) => measured(r.write_p99_us, r.writes),
    help: 'A write that waits for a merge or a compaction shows here' },
  { id: 'dram_bytes_per_key', group: 'memory and I/O', label: 'DRAM per key', unit: 'B/key', value: (r) => val(r.dram_bytes_per_key),
    help: 'The store\'s index and buffers in DRAM per key stored (FAWN-DS 6, SILT ~0.7, CONA ~1.7 in the papers)' },
  { id: 'dram_bytes', group: 'memory and I/O', label: 'DRAM in all', unit: 'KB', value: (r) => val(r.dram_bytes / 1024) },
  { id: 'lookup_reads_per_get', group: 'memory and I/O', label: 'device reads per get', unit: 'reads', value: (r) => measured(r.lookup_reads_per_get, r.reads) },
  { id: 'store_wa', group: 'memory and I/O', label: 'write amplification, store', unit: '×', value: (r) => measured(r.store_wa, r.writes),
    help: 'Bytes the store wrote to the device per byte the user put' },
  { id: 'ftl_wa', group: 'memory and I/O', label: 'write amplification, FTL', unit: '×', value: (r) => measured(r.ftl_wa, r.writes),
    help: 'Flash pages the FTL programmed per page the store wrote (garbage collection)' },
  { id: 'uj_per_op', group: 'energy and background', label: 'energy per operation', unit: 'µJ/op', value: (r) => measured(r.joules_per_op * 1e6, r.ops),
    help: 'The host (idle and busy cores) and the device, per operation served since the preload; at a low rate the idle watts dominate, so raise the rate to compare the stores\' own costs' },
  { id: 'stall_pct', group: 'energy and background', label: 'write time stalled', unit: '%', value: (r) => val(r.stall_pct),
    help: 'Foreground time spent waiting for background work (a full buffer, L0 over its limit, an inline merge)' },
  { id: 'background_busy_pct', group: 'energy and background', label: 'background busy', unit: '%', value: (r) => val(r.background_busy_pct),
    help: 'The share of time the store\'s background actor (merge, compaction, conversion) was working' },
  { id: 'background_jobs', group: 'energy and background', label: 'background jobs done', unit: 'jobs', value: (r) => val(r.background_jobs),
    help: 'Merges, compactions, conversions and flushes finished' },
  { id: 'mismatches', group: 'checks', label: 'wrong values read', unit: 'reads', value: (r) => val(r.mismatches),
    help: 'Reads whose value was not the version the operation stream says they must see (0 in a correct store)' },
  { id: 'errors', group: 'checks', label: 'failed operations', unit: 'ops', value: (r) => val(r.errors), help: 'The last failure is named under the store\'s card' },
  { id: 'shed', group: 'checks', label: 'operations shed', unit: 'ops', value: (r) => val(r.shed), help: 'Dropped because the store\'s queue was full' },
];

export const COUNTER_GROUPS = [...new Set(COUNTERS.map((c) => c.group))];

/** Bytes in three digits: "176 KB", "1.1 MB" (KB = 1024 bytes). */
export function shortBytes(v: number): string {
  const a = Math.abs(v);
  if (a < 1024) return `${fmt(v)} B`;
  if (a < 1024 ** 2) return `${fmt(v / 1024)} KB`;
  if (a < 1024 ** 3) return `${fmt(v / 1024 ** 2)} MB`;
  return `${fmt(v / 1024 ** 3)} GB`;
}

/** A store's name where room is short (the table's header); its full label otherwise. */
const SHORT: Record<string, string> = { cona: 'CONA', 'cona-1t': 'CONA 1 thread', silt: 'SILT', lsm: 'LSM', fawnds: 'FAWN\u2011DS', btree: 'B+tree' };
export function shortName(r: { kind: string; label: string }): string {
  return SHORT[r.kind] ?? r.label;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

/** One sentence on a store's structure. */
export function structureSummary(st: StoreStructure): string {
  const s = st as Record<string, unknown>;
  switch (st.type) {
    case 'cona': {
      const b = arr(s.buffers).map(num);
      const levels = arr(s.levels).map(obj);
      const cells = levels.map((l) => arr(l.cells).map(obj).filter((c) => c.visible !== false && num(c.entries) > 0).length);
      const lv = levels.length === 0 ? 'no levels yet' : `${plural(levels.length, 'level')} (${levels.map((l, i) => `L${num(l.level)}: ${cells[i]} ${cells[i] === 1 ? 'cell' : 'cells'}`).join(', ')})`;
      const merge = s.merging ? `, merging at L${num(s.merge_level)}` : '';
      return `Buffers ${fmt(b[0] ?? 0)} and ${fmt(b[1] ?? 0)} of ${fmt(num(s.buffer_capacity))} entries; ${lv}${merge}.`;
    }
    case 'silt': {
      const log = obj(s.log);
      const hs = arr(s.hash_stores).map(obj);
      const hsEntries = hs.reduce((a, h) => a + num(h.entries), 0);
      const work = [s.converting ? 'converting the log into a hash store' : '', s.merging ? 'merging the hash stores into the sorted store' : ''].filter(Boolean).join(' and ');
      const fz = s.frozen_log && typeof s.frozen_log === 'object' ? obj(s.frozen_log) : null;
      const frozen = fz ? ` (and a frozen one of ${fmt(num(fz.entries))})` : '';
      return `LogStore ${fmt(num(log.entries))} of ${fmt(num(log.capacity))} entries${frozen}; ${plural(hs.length, 'HashStore')} (${fmt(hsEntries)} entries); SortedStore ${fmt(num(obj(s.sorted).entries))} entries${work ? `; ${work}` : ''}.`;
    }
    case 'lsm': {
      const mem = obj(s.memtable);
      const levels = arr(s.levels).map(obj);
      const lv = levels.length === 0 ? 'no files yet' : levels.map((l) => `L${num(l.level)}: ${plural(num(l.files), 'file')}, ${shortBytes(num(l.bytes))}${num(l.target_bytes) > 0 ? ` of ${shortBytes(num(l.target_bytes))}` : ''}`).join('; ');
      const c = num(s.compacting);
      const comp = typeof s.compacting === 'number' && c >= 0 ? `; compacting L${c} into L${c + 1}` : '';
      return `Memtable ${shortBytes(num(mem.bytes))} of ${shortBytes(num(mem.capacity))}${s.immutable ? ', an immutable one flushing' : ''}; ${lv}${comp}.`;
    }
    case 'fawnds': {
      const cap = num(s.log_capacity);
      const used = num(s.log_bytes);
      return `Log ${shortBytes(used)} of ${shortBytes(cap)}${used > 0 ? ` (${shortBytes(num(s.garbage_bytes))} garbage)` : ''}; hash index ${fmt(num(s.index_used))} of ${fmt(num(s.index_buckets))} buckets used.`;
    }
    case 'btree':
      return `Height ${fmt(num(s.height))}: ${plural(num(s.internals), 'internal page')}, ${plural(num(s.leaves), 'leaf', 'leaves')}; buffer pool ${plural(num(s.pool_pages), 'page')}, ${fmt(num(s.pool_dirty))} dirty.`;
    default: {
      const fields = Object.entries(s).filter(([k, v]) => k !== 'type' && (typeof v === 'number' || typeof v === 'boolean')).map(([k, v]) => `${k} ${String(v)}`);
      return `A ${String(st.type)} store${fields.length ? `: ${fields.join(', ')}` : ''}.`;
    }
  }
}

/** What the store is busy with in the background, or ''. */
export function backgroundLine(st: StoreStructure): string {
  const s = st as Record<string, unknown>;
  if (st.type === 'cona' && s.merging) return `merging at L${num(s.merge_level)}`;
  if (st.type === 'silt') return [s.converting ? 'converting log → hash store' : '', s.merging ? 'merging → sorted store' : ''].filter(Boolean).join(', ');
  if (st.type === 'lsm') {
    const c = num(s.compacting);
    return [s.immutable ? 'flushing memtable' : '', typeof s.compacting === 'number' && c >= 0 ? `compacting L${c} → L${c + 1}` : ''].filter(Boolean).join(', ');
  }
  return '';
}

/** The label of a store in the snapshot (its kind when it is not there). */
export function labelOf(sn: StoresSnapshot, kind: string): string {
  return sn.stores.find((r) => r.kind === kind)?.label ?? kind;
}

export interface GetRow {
  kind: string;
  label: string;
  found: string;
  latency: string;
  reads: string;
}

/** The last get, a row per store, in the snapshot's store order. */
export function getRows(sn: StoresSnapshot): GetRow[] {
  const g = sn.last_get;
  if (!g) return [];
  return g.per_store.map((p) => ({
    kind: p.kind,
    label: labelOf(sn, p.kind),
    found: p.found ? 'found' : 'not found',
    latency: val(p.latency_us),
    reads: String(p.device_reads),
  }));
}

/** One line for the last get: which stores found it and the fastest. */
export function getTitle(sn: StoresSnapshot): string {
  const g = sn.last_get;
  if (!g) return '';
  const found = g.per_store.filter((p) => p.found);
  const fastest = [...g.per_store].sort((a, b) => a.latency_us - b.latency_us)[0];
  const who = found.length === g.per_store.length ? 'found in every store' : found.length === 0 ? 'not found in any store' : `found in ${found.map((p) => labelOf(sn, p.kind)).join(', ')}`;
  return `get “${g.key}”: ${who}${fastest ? `; fastest ${labelOf(sn, fastest.kind)} (${val(fastest.latency_us)} µs)` : ''}`;
}

export const EVENT_NAMES: Record<string, string> = {
  merge: 'merge', compaction: 'compaction', conversion: 'conversion', flush: 'flush', flip: 'flip',
};

/**
 * An event's words after its store's name: its detail (without the store's name, when the
 * session wrote it in: "LSM (LevelDB-like): flush #46 …"), with the kind before it unless it
 * names the kind already.
 */
function eventText(e: StoresEvent, label: string): string {
  const name = EVENT_NAMES[e.kind] ?? e.kind;
  const detail = e.detail.startsWith(`${label}: `) ? e.detail.slice(label.length + 2) : e.detail;
  if (!detail) return name;
  return detail.toLowerCase().startsWith(e.kind.toLowerCase()) ? detail : `${name} ${detail}`;
}

export function eventLines(sn: StoresSnapshot): Array<{ key: string; kind: string; store: string; text: string }> {
  return sn.events.map((e: StoresEvent, i) => ({
    key: `${e.t_ns}-${i}`,
    kind: e.kind,
    store: e.store,
    text: `${fmtNs(e.t_ns)} · ${labelOf(sn, e.store)}: ${eventText(e, labelOf(sn, e.store))}`,
  })).reverse();
}

const WORKLOADS: Record<string, string> = {
  load: 'the load (new records only)', a: 'YCSB A', b: 'YCSB B', c: 'YCSB C', d: 'YCSB D', e: 'YCSB E', f: 'YCSB F',
};

const STORE_NAMES: Record<string, string> = {
  cona: 'CONA', cona_1t: 'CONA (one thread)', silt: 'SILT', lsm: 'the LSM', fawnds: 'FAWN-DS', btree: 'the B+tree',
};

/** The stores chosen in a configuration, as parameter names in StoreKinds() order. */
export function chosenStores(c: Partial<StoresConfig>): string[] {
  return STORE_PARAMS.filter((p) => c[p.param] === true).map((p) => p.param);
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The setup in one line (the setup's folded summary). */
export function setupSummary(c: Partial<StoresConfig>): string {
  const stores = chosenStores(c).map((p) => STORE_NAMES[p] ?? p);
  const parts = [
    stores.length ? list(stores) : 'no store chosen',
    WORKLOADS[c.workload ?? ''] ?? `workload ${c.workload}`,
    c.device ? `on ${c.device}` : '',
    c.host ? `${c.host} host` : '',
    typeof c.records === 'number' ? `${fmt(c.records)} records preloaded` : '',
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The load line: operations offered to each store, and who is behind. */
export function loadLine(sn: StoresSnapshot): string {
  const behind = sn.stores.filter((r) => r.queued > 0);
  const left = (sn.skipped ?? []).map((k) => `Left out: ${k.reason}`);
  const lag = behind.length === 0 ? 'every store keeps up' : `behind: ${behind.map((r) => `${r.label} (${fmt(r.queued)} waiting)`).join(', ')}`;
  const keys = typeof sn.keys === 'number' ? `, ${fmt(sn.keys)} keys in each` : '';
  return `${fmt(sn.ops_offered)} operations offered to each store (${WORKLOADS[sn.workload] ?? sn.workload}${keys}); ${lag}.${left.length ? ` ${left.join('; ')}.` : ''}`;
}

/** One line for an operation's result. */
export function describeResult(op: StoresOp, r: StoresOpResult): string {
  switch (op.op) {
    case 'put':
      return `put “${op.key}” into every store`;
    case 'get':
      return `get ${'key' in op ? `“${op.key}”` : `record ${op.record}`} in every store: see the last get below`;
    case 'fill':
      return `filled ${fmt(typeof r.count === 'number' ? r.count : op.count)} new records into every store`;
    case 'run_until':
      return `ran ${fmt(op.ops)} operations${typeof r.t_ns === 'number' ? ` (now ${fmtNs(r.t_ns)})` : ''}`;
  }
}
