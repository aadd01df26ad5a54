/**
 * Everything the SRCMap view asks of its session (the core's `srcmap`, through the session
 * client) beyond ticks and live fields: apply an operation (run to an hour, locate a block, load
 * a trace), the "power" view's request, and the speeds the day clock offers.
 */
import type { Speed } from '../../app/LiveControls';
import type { ApplyResult, LiveSessionClient, ViewRequest } from '../../model/session/client';
import type { CoreError } from '../../model/types';
import type { SrcmapOp, SrcmapOpResult, SrcmapSnapshot } from './srcmapTypes';

export type SrcmapClient = LiveSessionClient<SrcmapSnapshot, SrcmapOp, SrcmapOpResult>;

const MIN = 60e9;

/**
 * Virtual time per wall second. A day is 24 h and a consolidation interval 2 h by default: at
 * 30 minutes per second the day takes 48 s and a consolidation comes every 4 s; the slow speeds
 * follow a spin-up (6 s) and a remap's sync I/O, the fast ones the day's shape.
 */
export const SRCMAP_SPEEDS: Speed[] = [
  { label: '10 s of the day per second', nsPerSec: 10e9 },
  { label: '1 min of the day per second', nsPerSec: MIN },
  { label: '5 min of the day per second', nsPerSec: 5 * MIN },
  { label: '30 min of the day per second', nsPerSec: 30 * MIN },
  { label: '1 h of the day per second', nsPerSec: 60 * MIN },
  { label: '2 h of the day per second', nsPerSec: 120 * MIN },
];
export const SRCMAP_DEFAULT_SPEED = 3;

/** The power view's columns at most this often (wall ms), and only when the session's version moved. */
export const POWER_EVERY_MS = 400;

export const POWER_VIEW: ViewRequest = { name: 'power', key: 'power' };

export function applyOp(s: SrcmapClient, op: SrcmapOp): Promise<ApplyResult<SrcmapOpResult> | CoreError> {
  return s.apply(op);
}

/** A trace file bigger than this is refused before it is read (it would be sent whole to the session worker). */
export const MAX_TRACE_BYTES = 200 * 1024 * 1024;

/** Why a chosen file is refused before reading it, or null. */
export function traceFileProblem(name: string, bytes: number): string | null {
  if (bytes === 0) return `${name} is empty`;
  if (bytes > MAX_TRACE_BYTES) return `${name} is ${Math.round(bytes / 1048576)} MB; at most ${MAX_TRACE_BYTES / 1048576} MB can be replayed in the page (cut it to the days you need, or use the CLI)`;
  return null;
}
