/**
 * The FAWN-DS live view's speeds and its auto speed's policy: slow motion while a compaction,
 * split or merge runs (its lock slower still), cruising otherwise.
 */
import { AUTO_SPEED, speedsOf, type Speed } from '../../app/LiveControls';
import type { AutoMode, AutoPolicy } from '../../app/autoSpeed';
import type { FawndsSnapshot } from './fawndsTypes';
import { fmtNs } from '../../viz/format';

/**
 * Virtual time per wall second: at 10 ms/s the SOSP lock (25 ms) holds for 2.5 s. The
 * default, auto, cruises at 1 s/s, scans a maintenance's source from 200 ms/s (a compaction
 * of a thousand records under load takes about 2.3 s of virtual time on the CF card; the
 * clock speeds up after 1.5 s), and shows its lock from 10 ms/s.
 */
export const FAWNDS_SPEEDS: Speed[] = [AUTO_SPEED, ...speedsOf([1e6, 1e7, 1e8, 1e9, 1e10])];

export const FAWNDS_AUTO: AutoPolicy<FawndsSnapshot> = { slowNsPerSec: 1e7, cruiseNsPerSec: 1e9, fastNsPerSec: 1e9, mode: (sn, busy) => fawndsAutoMode(sn, busy) };

/** The auto speed's reading of a snapshot. */
export function fawndsAutoMode(snap: FawndsSnapshot, busy: boolean): AutoMode {
  const m = snap.maintenance;
  if (!busy || !m.running) return { kind: 'cruise', what: '' };
  if (m.locked) return { kind: 'slow', what: `the ${m.kind}'s lock holds requests (${fmtNs(m.lock_hold_ns)})`, nsPerSec: 1e7 };
  if (m.source < 0) return { kind: 'slow', what: `${m.kind} finishing: the store list is committed`, nsPerSec: 2e8 };
  return { kind: 'slow', what: `${m.kind} of store ${m.source} in progress`, nsPerSec: 2e8 };
}

