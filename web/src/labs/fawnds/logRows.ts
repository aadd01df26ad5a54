/**
 * The FAWN-DS log view's rows, built from a snapshot and the logs' columns: one row per store
 * with its range, role, capacity and log, what the running maintenance does to it (the scan
 * position, its lock, its note) and the last lookup's reads in it; rows in ring order, a store
 * being built right after its source. Pure: the same inputs give the same rows.
 */
import type { FawndsLog, FawndsSnapshot } from './fawndsTypes';
import type { LogRow } from './fawndsLogView';

/** The parts of a snapshot the rows read. */
export type RowsSnapshot = Pick<FawndsSnapshot, 'stores' | 'maintenance' | 'last_lookup' | 'crashed'>;

/** What a store's row says it is doing, from its role and the maintenance running. */
function noteOf(role: LogRow['role'], m: RowsSnapshot['maintenance']): string | undefined {
  if (role === 'building') return `new store ← ${m.kind} of store ${m.source}`;
  if (role === 'source') return `${m.kind} source`;
  if (role === 'destination') return `${m.kind} destination`;
  return undefined;
}

/** One row per store, in ring order. `logs` by store id (a store without one draws empty); `names` labels keys typed on the page. */
export function logRows(sn: RowsSnapshot, logs: ReadonlyMap<number, FawndsLog>, names: ReadonlyMap<number, string>): LogRow[] {
  const m = sn.maintenance;
  const lk = sn.last_lookup;
  const rows = sn.stores.map((st): LogRow => ({
    id: st.id,
    range: st.range.label,
    role: st.role,
    capacity: st.log_capacity,
    log: logs.get(st.id) ?? null,
    names,
    scan: m.running && st.id === m.source ? m.scanned : undefined,
    locked: m.running && m.locked && (st.id === m.source || st.id === m.destination),
    reads: lk && lk.store === st.id && !sn.crashed ? lk.reads.map((r) => ({ offset: r.log_offset, falsePositive: r.false_positive })) : undefined,
    note: noteOf(st.role, m),
  }));
  const source = sn.stores.find((x) => x.id === m.source);
  const start = new Map(sn.stores.map((st) => [st.id, st.role === 'building' ? (source ? source.range.start_frac : 0) + 1e-9 : st.range.start_frac]));
  return rows.sort((a, b) => start.get(a.id)! - start.get(b.id)!);
}

/** The records of every log by state (live, orphaned, deleted, out of range, lost), summed. */
export function totalLogCounts(logs: Iterable<FawndsLog>): number[] {
  const counts = [0, 0, 0, 0, 0];
  for (const l of logs) l.counts.forEach((c, k) => (counts[k]! += c));
  return counts;
}
