/**
 * Everything the CONA view asks of its session (the core's `cona`, through the session
 * client) beyond ticks and live fields: apply an operation, a scenario's script with its big
 * fills cut into one chunk per frame, and the speeds the view offers.
 */
import type { Speed } from '../../app/LiveControls';
import { chunkFills } from '../../app/scriptQueue';
import type { ApplyResult, LiveSessionClient } from '../../model/session/client';
import type { CoreError } from '../../model/types';
import type { ConaOp, ConaOpResult, ConaSnapshot } from './conaTypes';

export type ConaClient = LiveSessionClient<ConaSnapshot, ConaOp, ConaOpResult>;

/**
 * Virtual time per wall second. At the default 2,000 puts/s a 64 KB buffer (297 entries)
 * fills in 0.15 s of virtual time: 200 ms per second shows each fill and induce; the faster
 * speeds grow the levels, the slowest follows a merge entry by entry.
 */
export const CONA_SPEEDS: Speed[] = [
  { label: '10 ms per second (slow motion)', nsPerSec: 10_000_000 },
  { label: '50 ms per second', nsPerSec: 50_000_000 },
  { label: '200 ms per second', nsPerSec: 200_000_000 },
  { label: '1 s per second', nsPerSec: 1_000_000_000 },
  { label: '5 s per second', nsPerSec: 5_000_000_000 },
];
export const CONA_DEFAULT_SPEED = 2;

/** A flip stays outlined for this many wall seconds. */
export const FLIP_MARK_S = 2;

/** Records one frame's operation fills at most (bigger fills in a scenario's script are cut into these). */
export const FILL_CHUNK = 20_000;

export function expandScript(ops: ConaOp[]): ConaOp[] {
  return chunkFills(ops, FILL_CHUNK);
}

export function applyOp(s: ConaClient, op: ConaOp): Promise<ApplyResult<ConaOpResult> | CoreError> {
  return s.apply(op);
}
