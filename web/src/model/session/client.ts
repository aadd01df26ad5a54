/**
 * The live-session client: one per running session, the only way the app drives a live lab
 * session. Every call is a request to the host that owns the session (host.ts): in the browser
 * the session worker (worker.ts; typed arrays in replies are transferred), inline in Node and
 * tests. Requests of one session go one at a time, in the order they were made; a tick is one
 * round trip (advance, snapshot, counters, column views). Failures are values ({ok: false,
 * code, message}); after dispose() every call answers 'session closed'.
 */
import type { CoreError } from '../types';
import { SessionHost, type OpenRaw } from './host';
import type { Columns, Envelope, HostReply, HostRequest, TickRequest, ViewRequest } from './protocol';
import { sessionById, type SessionInfo } from './schema';

export type { Columns, TickRequest, ViewRequest } from './protocol';

/** Carries requests to a host and brings the replies back. */
export interface Transport {
  request(req: HostRequest): Promise<HostReply>;
}

export interface TickResult<S> {
  ok: true;
  /** Virtual ns advanced (less than asked when the busy phase changed mid-way). */
  advancedNs: number;
  events: number;
  /** The busy phase when the tick began, and after it. */
  busyBefore: number;
  busy: number;
  version: number;
  snapshot: S;
  /** The requested views by key: columns, or why the view could not be made. */
  views: Record<string, Columns | CoreError>;
}

export interface ApplyResult<R> {
  ok: true;
  result: R;
  busy: number;
  version: number;
}

export interface LiveSessionClient<S = unknown, O = unknown, R = unknown> {
  readonly id: string;
  readonly info: SessionInfo | undefined;
  /** The busy phase and version from the latest reply (0 before any). */
  readonly busy: number;
  readonly version: number;
  readonly closed: boolean;
  tick(req: TickRequest): Promise<TickResult<S> | CoreError>;
  /** Runs the next event; ran is false when there was none. */
  step(): Promise<{ ok: true; ran: boolean } | CoreError>;
  /** Changes live fields of the running session. */
  reconfigure(patch: Record<string, unknown>): Promise<{ ok: true } | CoreError>;
  apply(op: O): Promise<ApplyResult<R> | CoreError>;
  columns(view: ViewRequest): Promise<Columns | CoreError>;
  /** Frees the session; requests made before it still complete. */
  dispose(): void;
}

const CLOSED: CoreError = { ok: false, code: 'unavailable', message: 'session closed' };
let nextSid = 1;

class Client<S, O, R> implements LiveSessionClient<S, O, R> {
  busy = 0;
  version = 0;
  closed = false;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly id: string, readonly info: SessionInfo | undefined, readonly sid: number, private readonly transport: Transport) {}

  /** Queues a request behind the ones before it; the counters follow every reply. */
  send(req: HostRequest): Promise<HostReply> {
    const run = async (): Promise<HostReply> => {
      let reply: HostReply;
      try {
        reply = await this.transport.request(req);
      } catch (err) {
        reply = { ok: false, code: 'internal', message: `the session host failed: ${String(err)}` };
      }
      if (reply.ok && 'busy' in reply) {
        this.busy = reply.busy;
        this.version = reply.version;
      }
      return reply;
    };
    const p = this.chain.then(run, run);
    this.chain = p;
    return p;
  }

  private async call(req: HostRequest): Promise<HostReply> {
    return this.closed ? CLOSED : this.send(req);
  }

  async tick(t: TickRequest): Promise<TickResult<S> | CoreError> {
    const r = await this.call({ type: 'tick', sid: this.sid, ...t });
    if (!r.ok || r.type !== 'tick') return asError(r);
    return { ok: true, advancedNs: r.advancedNs, events: r.events, busyBefore: r.busyBefore, busy: r.busy, version: r.version, snapshot: JSON.parse(r.snapshotJson) as S, views: r.views };
  }

  async step(): Promise<{ ok: true; ran: boolean } | CoreError> {
    const r = await this.call({ type: 'step', sid: this.sid });
    return r.ok && r.type === 'step' ? { ok: true, ran: r.ran } : asError(r);
  }

  async reconfigure(patch: Record<string, unknown>): Promise<{ ok: true } | CoreError> {
    const r = await this.call({ type: 'reconfigure', sid: this.sid, patchJson: JSON.stringify(patch) });
    return r.ok && r.type === 'reconfigure' ? { ok: true } : asError(r);
  }

  async apply(op: O): Promise<ApplyResult<R> | CoreError> {
    const r = await this.call({ type: 'apply', sid: this.sid, opJson: JSON.stringify(op) });
    return r.ok && r.type === 'apply' ? { ok: true, result: JSON.parse(r.json) as R, busy: r.busy, version: r.version } : asError(r);
  }

  async columns(view: ViewRequest): Promise<Columns | CoreError> {
    const r = await this.call({ type: 'columns', sid: this.sid, view });
    return r.ok && r.type === 'columns' ? r.columns : asError(r);
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    void this.send({ type: 'dispose', sid: this.sid });
  }
}

function asError(r: HostReply): CoreError {
  return r.ok ? { ok: false, code: 'internal', message: `unexpected reply '${r.type}'` } : r;
}

/**
 * Opens session `id` (sessions.json) with `config` (its fields; a `view` naming it is left
 * out) and a decimal `seed`; the client, or why the core refused it.
 */
export async function openSession<S = unknown, O = unknown, R = unknown>(
  id: string, config: Record<string, unknown>, seed: string, transport: Transport = workerTransport(),
): Promise<LiveSessionClient<S, O, R> | CoreError> {
  const fields = { ...config };
  delete fields.view;
  const client = new Client<S, O, R>(id, sessionById(id), nextSid++, transport);
  const r = await client.send({ type: 'open', sid: client.sid, id, configJson: JSON.stringify(fields), seed });
  if (!r.ok) return r;
  return client;
}

/** A transport that runs a host in this thread (Node, tests): the same code as the worker. */
export function inlineTransport(open: OpenRaw): Transport & { host: SessionHost } {
  const host = new SessionHost(open);
  return { host, request: (req) => Promise.resolve().then(() => host.handle(req)) };
}

let shared: Transport | null = null;

/** The page's session worker (one for every live session; started on first use). */
export function workerTransport(): Transport {
  if (shared) return shared;
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, (r: HostReply) => void>();
  let nextReq = 1;
  const failAll = (message: string) => {
    for (const settle of pending.values()) settle({ ok: false, code: 'internal', message });
    pending.clear();
  };
  worker.onmessage = (e: MessageEvent<Envelope<HostReply>>) => {
    const settle = pending.get(e.data.reqId);
    pending.delete(e.data.reqId);
    settle?.(e.data.body);
  };
  worker.onerror = (e) => {
    failAll(`the session worker failed: ${e.message}`);
    worker.terminate();
    shared = null;
  };
  const transport: Transport = {
    request: (body) => new Promise<HostReply>((settle) => {
      const reqId = nextReq++;
      pending.set(reqId, settle);
      worker.postMessage({ reqId, body } satisfies Envelope<HostRequest>);
    }),
  };
  shared = transport;
  return transport;
}
