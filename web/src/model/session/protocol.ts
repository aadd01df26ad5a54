/**
 * The messages between a live-session client (client.ts) and the host that owns the sessions
 * (host.ts, in the session worker or inline). Every request names its session by `sid`; every
 * reply answers one request by `reqId`. Failures are values ({ok: false, code, message}).
 */
import type { CoreError } from '../types';

/** A column view to fetch with a tick: its name, arguments, and the key its result is filed under (default: the name). */
export interface ViewRequest {
  name: string;
  args?: Record<string, unknown>;
  key?: string;
}

/** A view's columns: typed arrays (JS-owned, transferred), numbers and lists of numbers. */
export type Columns = Record<string, unknown>;

export interface TickRequest {
  /** Virtual ns to advance (0: just look). */
  dtNs: number;
  maxEvents: number;
  /** Advance in chunks of about this many ns, ending early where busy() changes. */
  chunkNs?: number;
  /**
   * The busy phase the advance was planned for (the auto clock's plan). When the session's
   * phase differs as the tick begins (an operation queued before this tick ran the session
   * into an event, or out of one), the tick advances nothing and reports the phase, so the
   * next plan runs the event at its own speed rather than at the speed planned without it.
   */
  plannedBusy?: number;
  views?: ViewRequest[];
}

export type HostRequest =
  | { type: 'open'; sid: number; id: string; configJson: string; seed: string }
  | ({ type: 'tick'; sid: number } & TickRequest)
  | { type: 'step'; sid: number }
  | { type: 'reconfigure'; sid: number; patchJson: string }
  | { type: 'apply'; sid: number; opJson: string }
  | { type: 'columns'; sid: number; view: ViewRequest }
  | { type: 'dispose'; sid: number };

/** The session's counters every reply carries (so the client always knows the latest). */
export interface SessionState {
  busy: number;
  version: number;
}

export type HostReply =
  | ({ ok: true; type: 'open' } & SessionState)
  | ({ ok: true; type: 'tick'; advancedNs: number; events: number; busyBefore: number; snapshotJson: string; views: Record<string, Columns | CoreError> } & SessionState)
  | ({ ok: true; type: 'step'; ran: boolean } & SessionState)
  | ({ ok: true; type: 'reconfigure' } & SessionState)
  | ({ ok: true; type: 'apply'; json: string } & SessionState)
  | ({ ok: true; type: 'columns'; columns: Columns } & SessionState)
  | { ok: true; type: 'dispose' }
  | CoreError;

/** Over the worker: the request with its id, and the reply with it. */
export type Envelope<T> = { reqId: number; body: T };

/** The ArrayBuffers under the typed arrays of a reply (listed as transferables). */
export function transferablesOf(reply: HostReply): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const add = (cols: Columns) => {
    for (const v of Object.values(cols)) if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer && !out.includes(v.buffer)) out.push(v.buffer);
  };
  if (reply.ok && reply.type === 'tick') for (const c of Object.values(reply.views)) if (c.ok !== false) add(c as Columns);
  if (reply.ok && reply.type === 'columns') add(reply.columns);
  return out;
}
