/**
 * The host of live sessions: owns the core's LabSession objects (by the client's `sid`) and
 * answers the protocol's requests (protocol.ts). The session worker (worker.ts) runs one; the
 * inline transport (client.ts) runs one in the caller's thread for Node and tests. A tick is
 * one round trip: the chunked advance (advance.ts), then the snapshot, the counters and the
 * requested column views.
 */
import type { CoreError } from '../types';
import { advanceChunked } from './advance';
import type { Columns, HostReply, HostRequest, ViewRequest } from './protocol';

/** A failure as the bindings return it. */
type RawError = { ok: false; code: string; message: string };

/** The core's generic session (wasm-core/bindings: LabSession), as the host drives it. */
export interface RawLabSession {
  advance(dtNs: number, maxEvents: number): number;
  step(): boolean;
  /** '' on success, else the message. */
  reconfigure(patchJson: string): string;
  snapshot(): string;
  apply(opJson: string): { ok: true; json: string } | RawError;
  version(): number;
  busy(): number;
  columns(view: string, argsJson: string): ({ ok: true } & Columns) | RawError;
  delete(): void;
}

/** Creates a session of the core by id, or says why it cannot. */
export type OpenRaw = (id: string, configJson: string, seed: string) => RawLabSession | CoreError;

const closed = (sid: number): CoreError => ({ ok: false, code: 'unavailable', message: `session ${sid} is closed` });

export class SessionHost {
  private readonly sessions = new Map<number, RawLabSession>();

  constructor(private readonly open: OpenRaw) {}

  /** How many sessions are open (tests check that dispose frees them). */
  get size(): number {
    return this.sessions.size;
  }

  handle(req: HostRequest): HostReply {
    try {
      return this.dispatch(req);
    } catch (err) {
      return { ok: false, code: 'internal', message: `the core failed: ${String(err)}` };
    }
  }

  private dispatch(req: HostRequest): HostReply {
    if (req.type === 'open') {
      this.sessions.get(req.sid)?.delete();
      const s = this.open(req.id, req.configJson, req.seed);
      if ('ok' in s && s.ok === false) return s;
      const raw = s as RawLabSession;
      this.sessions.set(req.sid, raw);
      return { ok: true, type: 'open', busy: raw.busy(), version: raw.version() };
    }
    const s = this.sessions.get(req.sid);
    if (req.type === 'dispose') {
      s?.delete();
      this.sessions.delete(req.sid);
      return { ok: true, type: 'dispose' };
    }
    if (!s) return closed(req.sid);
    const state = () => ({ busy: s.busy(), version: s.version() });
    switch (req.type) {
      case 'tick': {
        const busyBefore = s.busy();
        const stale = req.plannedBusy !== undefined && req.plannedBusy !== busyBefore;
        const a = advanceChunked(s, stale ? 0 : req.dtNs, req.maxEvents, req.chunkNs);
        const snapshotJson = s.snapshot();
        const views: Record<string, Columns | CoreError> = {};
        for (const v of req.views ?? []) views[v.key ?? v.name] = columnsOf(s, v);
        return { ok: true, type: 'tick', advancedNs: a.advancedNs, events: a.events, busyBefore, snapshotJson, views, ...state() };
      }
      case 'step': {
        const ran = s.step();
        return { ok: true, type: 'step', ran, ...state() };
      }
      case 'reconfigure': {
        const message = s.reconfigure(req.patchJson);
        return message ? { ok: false, code: 'invalid_argument', message } : { ok: true, type: 'reconfigure', ...state() };
      }
      case 'apply': {
        const r = s.apply(req.opJson);
        return r.ok ? { ok: true, type: 'apply', json: r.json, ...state() } : { ok: false, code: r.code, message: r.message };
      }
      case 'columns': {
        const c = columnsOf(s, req.view);
        return isError(c) ? c : { ok: true, type: 'columns', columns: c, ...state() };
      }
    }
  }
}

function isError(c: Columns | CoreError): c is CoreError {
  return c.ok === false;
}

function columnsOf(s: RawLabSession, v: ViewRequest): Columns | CoreError {
  const r = s.columns(v.name, JSON.stringify(v.args ?? {}));
  if (!r.ok) return { ok: false, code: r.code, message: r.message };
  const fields: Columns = { ...r };
  delete fields.ok;
  return fields;
}
