/**
 * The Cluster page's connection to a real cluster's front-end: first GET /cluster (JSON from a
 * cluster; from a plain `npm start` server a 404 or the lab's HTML, which means "no cluster
 * here"), then the WebSocket at /cluster/events, reconnecting after a close with a backoff of
 * 0.5 s doubling to 8 s (reset by a good connection), saying at each step what it is doing.
 * The WebSocket, fetch and timers are passed in, so tests drive it without a network.
 */
import { parseClusterMessage, parseClusterView, type ClusterMessage, type ClusterViewWire } from '@wire/cluster';

export type ConnectionState =
  | { kind: 'connecting'; attempt: number }
  | { kind: 'open' }
  /** The connection closed or failed; the next try is in `retryMs`. */
  | { kind: 'retrying'; attempt: number; retryMs: number; reason: string }
  /** This server runs no cluster (a plain lab server). */
  | { kind: 'no-cluster'; reason: string };

/** The WebSocket surface used here (the browser's WebSocket has it). */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code?: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(): void;
}

export type FetchLike = (url: string, init?: { headers?: Record<string, string> }) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export interface SocketDeps {
  open: (url: string) => SocketLike;
  fetch: FetchLike;
  setTimeout: (f: () => void, ms: number) => unknown;
  clearTimeout: (h: unknown) => void;
}

export const BACKOFF_MIN_MS = 500;
export const BACKOFF_MAX_MS = 8000;

/** The wait before reconnect attempt `attempt` (1, 2, …): 0.5 s doubling to 8 s. */
export function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempt - 1));
}

/** The event stream's URL for a page at `loc` (ws: for http:, wss: for https:). */
export function eventsUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/cluster/events`;
}

/** What GET /cluster says: the view, "no cluster here", or a failure worth retrying. */
export async function probeCluster(fetch: FetchLike, base = ''): Promise<{ view: ClusterViewWire } | { none: string } | { retry: string }> {
  let r: Awaited<ReturnType<FetchLike>>;
  try {
    r = await fetch(`${base}/cluster`, { headers: { accept: 'application/json' } });
  } catch (e) {
    return { retry: `the server did not answer (${e instanceof Error ? e.message : String(e)})` };
  }
  if (r.status === 404) return { none: 'this server has no /cluster API (404)' };
  const type = r.headers.get('content-type') ?? '';
  if (r.status === 200 && !type.includes('json')) return { none: 'this server answers /cluster with a page, not the cluster API' };
  if (r.status !== 200) return { retry: `GET /cluster answered ${r.status}` };
  let body: unknown;
  try {
    body = JSON.parse(await r.text());
  } catch {
    return { none: 'GET /cluster did not answer JSON' };
  }
  const v = parseClusterView(body);
  return typeof v === 'string' ? { none: `GET /cluster did not answer a cluster view (${v})` } : { view: v };
}

export interface ClusterSocketHandlers {
  onState: (s: ConnectionState) => void;
  onMessage: (m: ClusterMessage) => void;
}

export class ClusterSocket {
  private socket: SocketLike | null = null;
  private timer: unknown = null;
  /** Tries that failed in a row (a connection that opens resets it). */
  private failures = 0;
  private stopped = false;

  constructor(private readonly url: string, private readonly h: ClusterSocketHandlers, private readonly d: SocketDeps, private readonly base = '') {}

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.d.clearTimeout(this.timer);
    this.timer = null;
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = s.onmessage = s.onerror = s.onopen = null;
      s.close();
    }
  }

  private async connect(): Promise<void> {
    this.h.onState({ kind: 'connecting', attempt: this.failures + 1 });
    const probe = await probeCluster(this.d.fetch, this.base);
    if (this.stopped) return;
    if ('none' in probe) return this.h.onState({ kind: 'no-cluster', reason: probe.none });
    if ('retry' in probe) return this.retry(probe.retry);
    this.h.onMessage({ type: 'snapshot', ...probe.view });
    let s: SocketLike;
    try {
      s = this.d.open(this.url);
    } catch (e) {
      return this.retry(`cannot open ${this.url}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.socket = s;
    let opened = false;
    s.onopen = () => {
      opened = true;
      this.failures = 0;
      this.h.onState({ kind: 'open' });
    };
    s.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      const m = parseClusterMessage(ev.data);
      if (typeof m !== 'string') this.h.onMessage(m); // a message that breaks the contract is dropped
    };
    s.onerror = () => {};
    s.onclose = (ev) => {
      if (this.socket !== s) return;
      this.socket = null;
      const why = ev.reason ? `: ${ev.reason}` : ev.code ? ` (code ${ev.code})` : '';
      this.retry(opened ? `the event stream closed${why}` : `the event stream was refused${why}`);
    };
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    const attempt = ++this.failures;
    const retryMs = backoffMs(attempt);
    this.h.onState({ kind: 'retrying', attempt, retryMs, reason });
    this.timer = this.d.setTimeout(() => {
      this.timer = null;
      if (!this.stopped) void this.connect();
    }, retryMs);
  }
}

/** A sentence for the state line. */
export function describeState(s: ConnectionState): string {
  switch (s.kind) {
    case 'connecting':
      return s.attempt > 1 ? `Reconnecting (attempt ${s.attempt})…` : 'Connecting to the cluster…';
    case 'open':
      return 'Connected: live.';
    case 'retrying':
      return `Disconnected — ${s.reason}. Trying again in ${(s.retryMs / 1000).toFixed(1)} s.`;
    case 'no-cluster':
      return `No cluster is running here — ${s.reason}.`;
  }
}
