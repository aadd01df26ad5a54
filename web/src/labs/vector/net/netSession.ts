/**
 * Everything the networked back-end view asks of its session (the core's `vector.net`, through
 * the session client) beyond ticks and live fields: the `trace` operation, and its result as a
 * line of text. The speeds the view offers live here too.
 */
import { isCoreError } from '../../../model/core';
import type { LiveSessionClient } from '../../../model/session/client';
import type { Speed } from '../../../app/LiveControls';
import { fmt } from '../../../viz/format';
import { STAGE_LABELS } from './netPalette';
import type { NetOp, NetSnapshot, NetTrace } from './netTypes';

export type NetClient = LiveSessionClient<NetSnapshot, NetOp, NetTrace>;

/**
 * Virtual time per wall second: slow motion shows each RPC's marks crossing the boxes; the
 * faster speeds fill the 20 ms window the rates cover in a second or less.
 */
export const NET_SPEEDS: Speed[] = [
  { label: '200 µs per second (RPCs one by one)', nsPerSec: 200_000 },
  { label: '1 ms per second', nsPerSec: 1_000_000 },
  { label: '5 ms per second', nsPerSec: 5_000_000 },
  { label: '20 ms per second', nsPerSec: 20_000_000 },
  { label: '100 ms per second', nsPerSec: 100_000_000 },
];
/** The speed the view opens at (5 ms per second: a window's rates in four seconds). */
export const NET_DEFAULT_SPEED = 2;

/** Follows the next RPC issued through its stages; the trace, or the core's message. */
export async function traceNext(s: NetClient): Promise<NetTrace | string> {
  const r = await s.apply({ op: 'trace' });
  return isCoreError(r) ? r.message : r.result;
}

/** "RPC 812 (4 keys, connection 3), answered in 301 µs: client 0 → on the wire 12 µs → …". */
export function describeTrace(t: NetTrace): string {
  const steps = t.stages.map((s) => `${STAGE_LABELS[s.stage] ?? s.stage} ${fmt(s.at_us)} µs`).join(' → ');
  const ch = t.channels.length > 0 ? `, DMA channel ${t.channels.join(', ')}` : '';
  return `RPC ${t.id} (${t.keys} key${t.keys === 1 ? '' : 's'}, connection ${t.conn}${ch}), answered after ${fmt(t.latency_us)} µs: ${steps} → answered ${fmt(t.latency_us)} µs.`;
}
