/**
 * Everything the FAWN-DS live view asks of its core session, in one place (the async session
 * client replaces these calls): open it, apply an operation (noting the typed key's name for
 * the views), and read the column views a frame paints (every store's log; the shown store's
 * index cells, none while the node is crashed).
 */
import type { Core, LiveFawndsSession } from '../../model/core';
import { isCoreError } from '../../model/core';
import type { FawndsConfig, FawndsIndexCells, FawndsLog, FawndsOp, FawndsSnapshot } from '../../model/fawndsTypes';
import type { CoreError } from '../../model/types';
import { indexCellPlan } from '../../viz/fawndsIndexView';
import { noteKeyName } from './fawndsOps';
import { totalLogCounts } from './logRows';

export type { LiveFawndsSession };

export function openFawnds(core: Core, config: Omit<FawndsConfig, 'script'>, seed: string): LiveFawndsSession | CoreError {
  return core.createFawndsSession(config, seed);
}

/** Applies `op`; a result's key (typed on the page) is remembered in `names` by its top 32 bits. */
export function applyOp(s: LiveFawndsSession, op: FawndsOp, names: Map<number, string>): ReturnType<LiveFawndsSession['apply']> {
  const r = s.apply(op);
  if (!isCoreError(r)) noteKeyName(names, r.result);
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
}

/** Reads every store's log and the index cells of `store` (as many as indexCellPlan gives its size). */
export function readColumns(s: LiveFawndsSession, sn: FawndsSnapshot, store: number): FawndsColumns {
  const logs = new Map<number, FawndsLog>();
  for (const st of sn.stores) {
    const l = s.log(st.id);
    if (!isCoreError(l)) logs.set(st.id, l);
  }
  const storeCount = sn.stores.filter((x) => x.role !== 'building').length;
  const shown = store >= storeCount && storeCount > 0 ? 0 : store;
  const base = { logs, counts: totalLogCounts(logs.values()), store: shown };
  if (sn.crashed) {
    return { ...base, cells: null, indexNote: 'The index lived in DRAM and was lost in the crash: recover to rebuild it from the checkpoint and the log.' };
  }
  const st = sn.stores.find((x) => x.id === shown);
  const plan = indexCellPlan(st?.index_bits ?? sn.config.index_bits);
  const c = s.index(shown, 0, plan.count, plan.group);
  return { ...base, cells: isCoreError(c) ? null : c, indexNote: isCoreError(c) ? c.message : '' };
}
