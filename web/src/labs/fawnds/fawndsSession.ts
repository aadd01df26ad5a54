/**
 * Everything the FAWN-DS live view asks of its session (the core's `fawnds` session, through
 * the session client): apply an operation (noting the typed key's name for the views), the
 * column views a tick fetches (every store's log; the shown store's index cells, none while
 * the node is crashed), and reading them back.
 */
import { isCoreError } from '../../model/core';
import type { FawndsIndexCells, FawndsLog, FawndsOp, FawndsOpResult, FawndsSnapshot } from './fawndsTypes';
import type { ApplyResult, LiveSessionClient, ViewRequest } from '../../model/session/client';
import type { Columns } from '../../model/session/protocol';
import type { CoreError } from '../../model/types';
import { indexCellPlan } from './fawndsIndexView';
import { noteKeyName } from './fawndsOps';
import { totalLogCounts } from './logRows';

export type FawndsClient = LiveSessionClient<FawndsSnapshot, FawndsOp, FawndsOpResult>;

/** Notes a result's key (typed on the page) in `names` by its top 32 bits. */
export function noteResult(r: ApplyResult<FawndsOpResult> | CoreError, names: Map<number, string>): void {
  if (!isCoreError(r)) noteKeyName(names, r.result);
}

/** Applies `op`, noting its key's name. */
export async function applyOp(s: FawndsClient, op: FawndsOp, names: Map<number, string>): Promise<ApplyResult<FawndsOpResult> | CoreError> {
  const r = await s.apply(op);
  noteResult(r, names);
  return r;
}

/** What one read of the columns gives a frame. */
export interface FawndsColumns {
  logs: Map<number, FawndsLog>;
  /** Records of every log by state. */
  counts: number[];
  /** The store the index shows: `store`, or 0 once `store` is gone (after a merge). */
  store: number;
  cells: FawndsIndexCells | null;
  /** Why there are no cells, or ''. */
  indexNote: string;
  /** Whether a store of the snapshot has no log here (it appeared during the tick): read again. */
  stale: boolean;
}

/** The store the index shows for `store`: itself, or 0 once it is gone. */
function shownStore(sn: FawndsSnapshot, store: number): number {
  const storeCount = sn.stores.filter((x) => x.role !== 'building').length;
  return store >= storeCount && storeCount > 0 ? 0 : store;
}

/** The column views to fetch with a tick, for the stores of `sn` (the last snapshot) and the index of `store`. */
export function columnViews(sn: FawndsSnapshot, store: number): ViewRequest[] {
  const views: ViewRequest[] = sn.stores.map((st) => ({ name: 'log', args: { store: st.id }, key: `log:${st.id}` }));
  if (!sn.crashed) {
    const shown = shownStore(sn, store);
    const st = sn.stores.find((x) => x.id === shown);
    const plan = indexCellPlan(st?.index_bits ?? sn.config.index_bits);
    views.push({ name: 'index', args: { store: shown, first: 0, count: plan.count, group: plan.group } });
  }
  return views;
}

/** Reads the columns a tick brought (`views`, asked by columnViews) against the tick's snapshot. */
export function readColumns(views: Record<string, Columns | CoreError>, sn: FawndsSnapshot, store: number): FawndsColumns {
  const logs = new Map<number, FawndsLog>();
  for (const [k, l] of Object.entries(views)) {
    if (k.startsWith('log:') && !isCoreError(l)) logs.set(Number(k.slice(4)), l as unknown as FawndsLog);
  }
  const base = { logs, counts: totalLogCounts(logs.values()), store: shownStore(sn, store), stale: sn.stores.some((st) => !logs.has(st.id)) };
  if (sn.crashed) {
    return { ...base, cells: null, indexNote: 'The index lived in DRAM and was lost in the crash: recover to rebuild it from the checkpoint and the log.' };
  }
  const c = views.index;
  if (!c) return { ...base, cells: null, indexNote: '', stale: true };
  return { ...base, cells: isCoreError(c) ? null : (c as unknown as FawndsIndexCells), indexNote: isCoreError(c) ? c.message : '' };
}
