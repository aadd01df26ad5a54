/**
 * The CONA snapshot as text: the counters as rows of one table (quantity, value, unit, in
 * groups), each cell's memory (trie and fragments, bytes and bytes per key), the last lookup
 * step by step, the recent events, the structure in one sentence (the canvas's accessible
 * name), and one line per operation's result. Pure functions.
 */
import { fmt, fmtNs } from '../../viz/format';
import type { ConaCell, ConaConfig, ConaEvent, ConaLookup, ConaLookupStep, ConaOp, ConaOpResult, ConaSnapshot } from './conaTypes';

export interface CounterRow {
  /** Stable id (data-counter in the page). */
  id: string;
  group: string;
  label: string;
  value: string;
  unit: string;
  /** What the quantity is, for a tooltip. */
  help?: string;
}

const pct = (v: number) => fmt(100 * v, 3);
const kb = (bytes: number) => fmt(bytes / 1024, 3);

/** Entries in the visible cells (what the tries and fragments index). */
export function cellEntries(sn: ConaSnapshot): number {
  return sn.cells.filter((c) => c.visible).reduce((a, c) => a + c.entries, 0);
}

export function counterRows(sn: ConaSnapshot): CounterRow[] {
  const c = sn.counters;
  const indexed = cellEntries(sn);
  const visible = sn.cells.filter((x) => x.visible);
  const trie = visible.reduce((a, x) => a + x.trie_bytes, 0);
  const frag = visible.reduce((a, x) => a + x.fragment_bytes, 0);
  const hidden = c.merge_ms > 0 ? Math.max(0, 1 - c.exposed_merge_ms / c.merge_ms) : NaN;
  const group = (name: string, list: Array<Omit<CounterRow, 'group'>>) => list.map((r) => ({ ...r, group: name }));
  return [
    ...group('structure', [
      { id: 'levels', label: 'levels k', value: String(sn.levels), unit: 'levels' },
      { id: 'entries', label: 'entries (buffers and visible cells)', value: fmt(sn.entries), unit: 'entries', help: 'An updated or deleted key counts once per version until a merge drops the older one' },
      { id: 'buffer_capacity', label: 'buffer size B', value: fmt(sn.buffer_capacity), unit: 'entries' },
    ]),
    ...group('DRAM', [
      { id: 'dram_bytes_per_key', label: 'DRAM per key (tries, fragments, buffers)', value: fmt(c.dram_bytes_per_key), unit: 'B/key' },
      { id: 'trie_bytes_per_key', label: 'tries per indexed key', value: indexed > 0 ? fmt(trie / indexed) : '—', unit: 'B/key', help: 'Table 3.2: ~2 / 0.74 / 0.45 B per key at block 4 / 16 / 64; Table 3.3: 0.678 for the mix' },
      { id: 'fragment_bytes_per_key', label: 'fragments per indexed key', value: indexed > 0 ? fmt(frag / indexed) : '—', unit: 'B/key' },
      { id: 'trie_bytes', label: 'tries', value: kb(c.trie_bytes), unit: 'KB' },
      { id: 'fragment_bytes', label: 'fragment arrays', value: kb(c.fragment_bytes), unit: 'KB' },
      { id: 'buffer_bytes', label: 'buffers', value: kb(c.buffer_bytes), unit: 'KB' },
    ]),
    ...group('merging', [
      { id: 'merge_steps_per_insert', label: 'merge steps per insert', value: fmt(c.merge_steps_per_insert), unit: 'entries moved', help: 'Entries written by merges per entry put; CONA needs at most k + 1 (COLA 2k + 2)' },
      { id: 'k_plus_1', label: 'bound k + 1', value: String(sn.levels + 1), unit: 'entries moved' },
      { id: 'exposed_merge_ms', label: 'exposed merge time (puts waited)', value: fmt(c.exposed_merge_ms), unit: 'ms' },
      { id: 'merge_ms', label: 'merge thread busy', value: fmt(c.merge_ms), unit: 'ms' },
      { id: 'hidden_pct', label: 'merge time hidden', value: Number.isFinite(hidden) ? pct(hidden) : '—', unit: '%' },
      { id: 'induces', label: 'induces', value: fmt(c.induces), unit: 'buffers' },
      { id: 'merges', label: 'merges', value: fmt(c.merges), unit: 'merges' },
      { id: 'flips', label: 'flips', value: fmt(c.flips), unit: 'shadows linked' },
    ]),
    ...group('I/O', [
      { id: 'store_write_amp', label: 'write amplification at the store', value: fmt(c.store_write_amp), unit: '×', help: 'Bytes the store wrote to its file per byte put' },
      { id: 'ftl_write_amp', label: 'write amplification at the FTL', value: fmt(c.ftl_write_amp), unit: '×', help: 'Flash pages programmed per page the host wrote' },
      { id: 'write_iops', label: 'write IOPS', value: fmt(c.write_iops), unit: 'ops/s', help: 'Puts and deletes per second of foreground time spent in them' },
      { id: 'read_iops', label: 'read IOPS', value: fmt(c.read_iops), unit: 'ops/s', help: 'Gets per second of foreground time spent in them' },
      { id: 'cache_hit_ratio', label: 'page-cache hit ratio', value: pct(c.cache_hit_ratio), unit: '%' },
      { id: 'flash_reads', label: 'entry reads by lookups', value: fmt(c.flash_reads), unit: 'reads' },
      { id: 'false_positives', label: 'false positives', value: fmt(c.false_positives), unit: 'reads' },
      { id: 'fragment_skips', label: 'cells skipped by a fragment', value: fmt(c.fragment_skips), unit: 'cells' },
    ]),
    ...group('operations', [
      { id: 'puts', label: 'puts', value: fmt(c.puts), unit: 'ops' },
      { id: 'deletes', label: 'deletes', value: fmt(c.deletes), unit: 'ops' },
      { id: 'gets', label: 'gets (hits / misses)', value: `${fmt(c.gets)} (${fmt(c.hits)} / ${fmt(c.misses)})`, unit: 'ops' },
    ]),
  ];
}

/** A slot's name: "L2 slot 0", "L3 shadow"; a buffer's (level 0): "active buffer". */
export function placeName(level: number, slot: number): string {
  if (level === 0) return slot === 1 ? 'frozen buffer' : 'active buffer';
  return slot === 2 ? `L${level} shadow` : `L${level} slot ${slot}`;
}

export interface CellRow {
  key: string;
  place: string;
  state: string;
  /** "297 / 297". */
  entries: string;
  trieBytes: string;
  trieBpk: string;
  block: string;
  fragments: string;
  fragmentBytes: string;
  fragmentBpk: string;
}

/** Whether a shadow's merge has completed (the session's `done`, else all its entries written). */
export function shadowDone(c: ConaCell): boolean {
  return c.done ?? (c.merged >= c.entries && c.entries > 0);
}

/** What a cell is doing: visible (and newer or older at its level), or a shadow merging or done. */
export function cellState(c: ConaCell, all: readonly ConaCell[]): string {
  if (!c.visible) return shadowDone(c) ? 'shadow, done: waits for the flip' : `shadow, merging: ${fmt(c.merged)} of ${fmt(c.capacity)}`;
  if (c.consumed) return 'merged below: dropped at the flip';
  const other = all.find((x) => x.level === c.level && x.visible && x.slot !== c.slot);
  if (!other) return 'visible';
  return c.seq > other.seq ? 'visible, newer: searched first' : 'visible, older';
}

export function cellRows(sn: ConaSnapshot): CellRow[] {
  const bpk = (bytes: number, n: number) => (n > 0 ? fmt(bytes / n) : '—');
  return sn.cells
    .slice()
    .sort((a, b) => a.level - b.level || a.slot - b.slot)
    .map((c) => ({
      key: `${c.level}-${c.slot}`,
      place: placeName(c.level, c.slot),
      state: cellState(c, sn.cells),
      entries: `${fmt(c.entries)} / ${fmt(c.capacity)}`,
      trieBytes: fmt(c.trie_bytes),
      trieBpk: bpk(c.trie_bytes, c.entries),
      block: String(c.block),
      fragments: c.fragment_bits > 0 ? `${c.fragment_bits}-bit` : 'none',
      fragmentBytes: fmt(c.fragment_bytes),
      fragmentBpk: bpk(c.fragment_bytes, c.entries),
    }));
}

/** One sentence per lookup step. */
export function stepText(s: ConaLookupStep): string {
  const place = placeName(s.level, s.slot);
  if (s.level === 0) {
    const what = s.outcome === 1 ? 'found' : s.outcome === 3 ? 'found a delete marker: the key is deleted' : 'not here';
    return `${place}: binary search, position ${fmt(s.rank)}: ${what}`;
  }
  const parts = [`${place}: trie rank ${fmt(s.rank)} (${fmt(s.trie_symbols)} symbols decoded)`];
  if (s.fragment === 0) parts.push('fragment mismatch: skipped without a flash read');
  else if (s.fragment === 1) parts.push('fragment match');
  else parts.push('no fragments here');
  if (s.flash_read) parts.push(s.cache_hit ? 'entry read: the page cache had it' : 'entry read from flash (page-cache miss)');
  if (s.outcome === 1) parts.push('found');
  else if (s.outcome === 2) parts.push(s.fragment === -1 ? 'another key: not here (no fragment to rule it out)' : 'another key: a false positive');
  else if (s.outcome === 3) parts.push('a delete marker: the key is deleted');
  else if (s.flash_read) parts.push('not here');
  return parts.join(' → ');
}

/** The lookup's headline: where it ended, its reads and its latency. */
export function lookupTitle(l: ConaLookup): string {
  const last = l.steps.at(-1);
  const where = l.found && last ? ` in the ${placeName(last.level, last.slot)}` : '';
  const deleted = !l.found && last?.outcome === 3;
  const result = l.found ? `found${where}` : deleted ? 'deleted (a delete marker answered)' : 'not found';
  const name = l.record !== undefined ? `record ${l.record}` : `“${l.key}”`;
  return `get ${name}: ${result} after ${l.steps.length} step${l.steps.length === 1 ? '' : 's'}, ${l.flash_reads} flash read${l.flash_reads === 1 ? '' : 's'}, ${fmt(l.latency_us)} µs`;
}

export function eventText(e: ConaEvent): string {
  const at = fmtNs(e.t_ns);
  switch (e.kind) {
    case 'induce':
      return `${at}: induce — the frozen buffer written into level 1, the buffers swapped`;
    case 'merge_start':
      return `${at}: merge starts — level ${e.level}'s two cells into level ${e.level + 1}'s shadow`;
    case 'merge_done':
      return `${at}: merge done — level ${e.level}'s cells are all in level ${e.level + 1}'s shadow`;
    case 'flip':
      return `${at}: flip — shadows made visible down to level ${e.level}, the cells merged into them dropped`;
    case 'crash':
      return `${at}: crash — the power failed (${e.level} level${e.level === 1 ? '' : 's'})`;
    case 'recover':
      return `${at}: recover — reopened from the manifest (${e.level} level${e.level === 1 ? '' : 's'})`;
    default:
      return `${at}: ${e.kind} (level ${e.level})`;
  }
}

/** The recent events, newest first. */
export function eventLines(sn: ConaSnapshot): Array<{ key: string; text: string; kind: string }> {
  return sn.events
    .map((e, i) => ({ key: `${e.t_ns}-${i}`, text: eventText(e), kind: e.kind }))
    .reverse();
}

/** The structure in one sentence (the canvas's accessible name). */
export function structureSummary(sn: ConaSnapshot): string {
  const cap = Math.max(1, sn.buffer_capacity);
  const act = sn.buffers.find((b) => b.role === 'active');
  const frz = sn.buffers.find((b) => b.role === 'frozen');
  const parts = [
    `${sn.levels} level${sn.levels === 1 ? '' : 's'}, ${fmt(sn.entries)} entries`,
    `active buffer ${Math.round((100 * (act?.entries ?? 0)) / cap)}% full`,
    `frozen buffer ${Math.round((100 * (frz?.entries ?? 0)) / cap)}% full${frz?.waiting ? ', waiting for a level-1 slot' : ''}`,
    `${sn.cells.filter((c) => c.visible).length} visible cells`,
  ];
  if (sn.merge.active) parts.push(`merging level ${sn.merge.level} into level ${sn.merge.level + 1}'s shadow, ${Math.round((100 * sn.merge.moved) / Math.max(1, sn.merge.total))}%`);
  if (sn.last_lookup) parts.push(`the last lookup's path drawn: ${lookupTitle(sn.last_lookup)}`);
  if (sn.crashed) parts.push('crashed');
  return `${parts.join('; ')}.`;
}

/** The merge in progress in words, or ''. */
export function mergeLine(sn: ConaSnapshot): string {
  const m = sn.merge;
  if (!m.active) return '';
  return `Merging level ${m.level}'s two cells into level ${m.level + 1}'s shadow: ${fmt(m.moved)} of ${fmt(m.total)} entries (${Math.round((100 * m.moved) / Math.max(1, m.total))}%).`;
}

/** A value as a line shows it: quoted text (cut at 40 characters), or a note when it is binary (a workload record's random bytes). */
export function valueText(v: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what marks binary data
  if (/[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/.test(v)) return 'a binary value (a workload record’s random bytes)';
  return `“${v.length > 40 ? `${v.slice(0, 40)}…` : v}”`;
}

/** What `run_until` waits for, in words. */
export const EVENT_NAMES: Readonly<Record<string, string>> = {
  induce: 'the next induce', merge_start: 'a merge starts', merge_done: 'a merge completes', flip: 'the next flip',
};

const num = (r: ConaOpResult, k: string): number | undefined => (typeof r[k] === 'number' ? (r[k] as number) : undefined);

function latency(r: ConaOpResult): string {
  const us = num(r, 'latency_us');
  const ns = num(r, 'latency_ns');
  if (us !== undefined) return `, ${fmt(us)} µs`;
  if (ns !== undefined) return `, ${fmtNs(ns)}`;
  return '';
}

/** One line saying what an operation did (the session's result fields, read loosely). */
export function describeResult(op: ConaOp, r: ConaOpResult): string {
  switch (op.op) {
    case 'put':
      return `put “${op.key}”${latency(r)}`;
    case 'delete':
      return `delete “${op.key}”: a delete marker written${latency(r)}`;
    case 'get': {
      const name = 'key' in op ? `“${op.key}”` : `record ${op.record}`;
      const found = r.found === true;
      const value = found && typeof r.value === 'string' ? ` → ${valueText(r.value)}` : '';
      const reads = num(r, 'flash_reads');
      return `get ${name}: ${found ? `found${value}` : 'not found'}${reads !== undefined ? `, ${reads} flash read${reads === 1 ? '' : 's'}` : ''}${latency(r)} — its path is drawn on the structure and listed below`;
    }
    case 'fill': {
      // `records` is the session's record count after the fill (the background load's inserts too), not the fill's.
      const n = op.count;
      const first = num(r, 'first_record');
      const caused = (['induces', 'merges', 'flips'] as const).filter((k) => num(r, k) !== undefined).map((k) => `${fmt(num(r, k)!)} ${k.slice(0, -1)}${num(r, k) === 1 ? '' : 's'}`);
      const us = num(r, 'duration_us');
      const from = first !== undefined ? ` from record ${first}` : '';
      return `filled ${fmt(n)} new record${n === 1 ? '' : 's'}${from}${us !== undefined ? ` in ${fmtNs(us * 1000)}` : ''}, then synced${caused.length > 0 ? `: ${caused.join(', ')}` : ''}`;
    }
    case 'sync':
      return `synced: everything acknowledged is durable${latency(r)}`;
    case 'run_until': {
      const what = EVENT_NAMES[op.event] ?? op.event;
      const ms = num(r, 'waited_ms');
      const after = ms !== undefined ? ` ${fmtNs(ms * 1e6)}` : '';
      return r.happened === true ? `ran until ${what} (level ${num(r, 'level') ?? '?'})${after ? ` after${after}` : ''}` : `waited${after} and gave up: no ${op.event.replace('_', ' ')} came`;
    }
    case 'crash': {
      const w = num(r, 'unsynced_writes');
      const e = num(r, 'buffered_entries');
      const lost = [w !== undefined ? `${fmt(w)} unsynced write${w === 1 ? '' : 's'} undone` : '', e !== undefined ? `${fmt(e)} buffered entr${e === 1 ? 'y' : 'ies'} gone` : '']
        .filter(Boolean).join(', ');
      return `crashed${lost ? `: ${lost}` : ''}; the tries and fragments in DRAM are gone too. Recover reopens from the manifest`;
    }
    case 'recover': {
      const levels = num(r, 'levels');
      const entries = num(r, 'entries');
      const us = num(r, 'duration_us');
      const found = [levels !== undefined ? `${levels} level${levels === 1 ? '' : 's'}` : '', entries !== undefined ? `${fmt(entries)} entries` : ''].filter(Boolean).join(', ');
      return `recovered from the manifest${found ? `: ${found}` : ''}${us !== undefined ? ` in ${fmtNs(us * 1000)}` : ''} (tries and fragments rebuilt from the cells)`;
    }
  }
}

/** A cell's figures in one line (the slot the pointer or the keyboard picked on the canvas). */
export function cellDetail(level: number, slot: number, sn: ConaSnapshot): string {
  const c = sn.cells.find((x) => x.level === level && x.slot === slot);
  const place = placeName(level, slot);
  if (!c) return `${place}: empty (capacity ${fmt(sn.buffer_capacity * 2 ** (level - 1))} entries)`;
  const bpk = (b: number) => (c.entries > 0 ? fmt(b / c.entries) : '—');
  const frag = c.fragment_bits > 0 ? `fragments ${fmt(c.fragment_bytes)} bytes (${bpk(c.fragment_bytes)} B/key, ${c.fragment_bits}-bit)` : 'no fragments';
  return `${place} — ${cellState(c, sn.cells)}: ${fmt(c.entries)} of ${fmt(c.capacity)} entries; trie ${fmt(c.trie_bytes)} bytes (${bpk(c.trie_bytes)} B/key, block ${c.block}); ${frag}`;
}

/** Whether the store is down: the snapshot says so, or its latest crash or recover event is a crash. */
export function isCrashed(sn: ConaSnapshot): boolean {
  if (typeof sn.crashed === 'boolean') return sn.crashed;
  const last = sn.events.filter((e) => e.kind === 'crash' || e.kind === 'recover').at(-1);
  return last?.kind === 'crash';
}

/** The background load in one line, or '' when the session gives none. */
export function loadLine(sn: ConaSnapshot): string {
  const l = sn.load;
  if (!l) return '';
  const what = sn.workload === undefined ? 'Background load' : sn.workload === 'insert' ? 'Background load (new records)' : `Background load (YCSB ${sn.workload.toUpperCase()})`;
  const rate = sn.rate_ops_per_s !== undefined ? ` at ${fmt(sn.rate_ops_per_s)} ops/s` : '';
  const err = l.errors > 0 ? `, ${fmt(l.errors)} failed${l.last_error ? ` (last: ${l.last_error})` : ''}` : '';
  return `${what}${rate}: ${fmt(l.completed)} of ${fmt(l.offered)} done, ${fmt(l.outstanding)} queued, ${fmt(l.shed)} shed${err}; ${fmt(l.unsynced_writes)} writes not yet synced.`;
}

/** The store's shape in one line (the folded settings' summary). */
export function setupSummary(c: Partial<ConaConfig>): string {
  const parts = [
    `B = ${c.buffer_kb ?? '?'} KB`,
    c.trie === 'mix' ? 'trie blocks mixed per level' : `trie block ${c.trie ?? '?'}`,
    c.fragments === 'off' ? 'no fragments' : `${c.fragments ?? '?'}-bit fragments`,
    c.last_filter === 'none' || c.last_filter === undefined ? 'none at the last level' : `${c.last_filter}-bit at the last level`,
    c.merge_thread === false ? 'merges inline (single thread)' : 'merge thread on',
  ];
  if (c.records) parts.push(`${fmt(c.records)} records preloaded`);
  return `Store: ${parts.join(' · ')} — change (starts a new store)`;
}
