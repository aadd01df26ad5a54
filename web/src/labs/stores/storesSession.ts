/**
 * Everything the Stores view asks of its session (the core's `stores`, through the session
 * client) beyond ticks and live fields: apply an operation, a scenario's script with its big
 * fills cut into one chunk per frame, and the speeds the view offers.
 */
import { speedsOf } from '../../app/LiveControls';
import { chunkFills } from '../../app/scriptQueue';
import type { ApplyResult, LiveSessionClient } from '../../model/session/client';
import type { CoreError } from '../../model/types';
import type { StoresOp, StoresOpResult, StoresSnapshot } from './storesTypes';

export type StoresClient = LiveSessionClient<StoresSnapshot, StoresOp, StoresOpResult>;

/**
 * Virtual time per wall second. At the default 2,000 ops/s to every store, 200 ms per second
 * offers each store 400 operations a wall second: CONA's 64 KB buffer (297 entries) fills in
 * under a second, the LSM's memtable in a few; the faster speeds grow the levels.
 */
export const STORES_SPEEDS = speedsOf([10e6, 50e6, 200e6, 1e9, 5e9]);
export const STORES_DEFAULT_SPEED = 2;

/** Records one frame's operation fills at most (bigger fills in a scenario's script are cut into these). */
export const FILL_CHUNK = 5_000;

export function expandScript(ops: StoresOp[]): StoresOp[] {
  return chunkFills(ops, FILL_CHUNK);
}

export function applyOp(s: StoresClient, op: StoresOp): Promise<ApplyResult<StoresOpResult> | CoreError> {
  return s.apply(op);
}
