/**
 * Outgoing peer connections: one TCP connection per destination endpoint, opened lazily on
 * the first send to the address in the peer table, its first frame a hello. Connections are
 * one-way for codec frames (A→B messages travel on A's connection to B), so per-pair FIFO is
 * TCP order. A connection that breaks drops what was in flight, like a dead machine's
 * messages; sends to an endpoint whose last connect failed are dropped until a backoff
 * (100 ms doubling to 2 s) has passed. When the table gives an endpoint a new address, its
 * old connection (to a dead process) is closed. JSON control frames that come back on an
 * outgoing connection (the front-end's welcome and peer updates) go to `onControl`.
 */
import { connect, type Socket } from 'node:net';
import { encodeFrame, frameKind, FrameReader } from './frames.js';
import { encodeHello, parseHostPort, type PeerTable } from './hello.js';
import { PEER_QUEUE_MAX_BYTES } from './limits.js';

export interface LinksOptions {
  self: number;              // this endpoint (may change once: a joining back-end learns its id)
  listen: string;            // this endpoint's own peer address, sent in every hello
  token?: string;
  boot?: string;             // sent in every hello (hello.ts)
  log: (line: string) => void;
  onControl?: (from: number, payload: Buffer) => void;
  backoffMinMs?: number;
  backoffMaxMs?: number;
  queueMaxBytes?: number;
}

interface Link {
  addr: string;
  socket?: Socket;
  retryAt: number;
  backoffMs: number;
  failing: boolean;          // the last attempt failed (logged once until a connect succeeds)
}

export class PeerLinks {
  private table: PeerTable = new Map();
  private links = new Map<number, Link>();
  private closed = false;
  /** Frames dropped because their destination was unknown, unreachable or backed up. */
  dropped = 0;

  constructor(private readonly o: LinksOptions) {}

  get self(): number {
    return this.o.self;
  }

  setSelf(id: number): void {
    this.o.self = id;
  }

  /** Sets the address later hellos announce (known only once the peer port is bound). */
  setListen(addr: string): void {
    this.o.listen = addr;
  }

  peers(): PeerTable {
    return new Map(this.table);
  }

  /** Replaces the peer table; connections to endpoints that moved or left are closed. */
  setPeers(table: PeerTable): void {
    this.table = new Map(table);
    for (const [e, link] of this.links) {
      if (table.get(e) !== link.addr) {
        link.socket?.destroy();
        this.links.delete(e);
      }
    }
  }

  /** Whether a connection to `to` is open (connected or connecting). */
  isOpen(to: number): boolean {
    return this.links.get(to)?.socket !== undefined;
  }

  /** Opens the connection to `to` now if it is not open and its backoff has passed. */
  ensure(to: number): void {
    this.link(to);
  }

  /** Sends one frame payload to `to`; returns false if it was dropped. */
  send(to: number, payload: Uint8Array): boolean {
    const link = this.link(to);
    if (!link?.socket) {
      this.dropped++;
      return false;
    }
    link.socket.write(encodeFrame(payload));
    if (link.socket.writableLength > (this.o.queueMaxBytes ?? PEER_QUEUE_MAX_BYTES)) {
      this.o.log(`peer ${to} (${link.addr}) is not draining: ${link.socket.writableLength} bytes queued; closing`);
      link.socket.destroy();
    }
    return true;
  }

  close(): void {
    this.closed = true;
    for (const link of this.links.values()) link.socket?.destroy();
    this.links.clear();
  }

  private link(to: number): Link | undefined {
    if (this.closed) return undefined;
    const addr = this.table.get(to);
    if (addr === undefined) return undefined;
    let link = this.links.get(to);
    if (!link) {
      link = { addr, retryAt: 0, backoffMs: this.o.backoffMinMs ?? 100, failing: false };
      this.links.set(to, link);
    }
    if (!link.socket && Date.now() >= link.retryAt) this.open(to, link);
    return link;
  }

  private open(to: number, link: Link): void {
    const hp = parseHostPort(link.addr);
    if (typeof hp === 'string') return;
    const socket = connect({ host: hp.host, port: hp.port });
    link.socket = socket;
    socket.setNoDelay(true);
    socket.write(encodeFrame(encodeHello({ from: this.o.self, listen: this.o.listen, ...(this.o.token ? { token: this.o.token } : {}),
      ...(this.o.boot ? { boot: this.o.boot } : {}) })));
    const reader = new FrameReader();
    socket.on('connect', () => {
      if (link.failing) this.o.log(`peer ${to} (${link.addr}) is reachable again`);
      link.failing = false;
      link.backoffMs = this.o.backoffMinMs ?? 100;
    });
    socket.on('data', (chunk: Buffer) => {
      let frames: Buffer[];
      try {
        frames = reader.push(chunk);
      } catch (e) {
        this.o.log(`peer ${to} (${link.addr}): ${(e as Error).message}; closing`);
        socket.destroy();
        return;
      }
      for (const f of frames) {
        if (frameKind(f) === 'json') this.o.onControl?.(to, f);
        else {
          this.o.log(`peer ${to} (${link.addr}) sent a non-control frame back on our connection; closing`);
          socket.destroy();
          return;
        }
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!link.failing) this.o.log(`peer ${to} (${link.addr}): ${err.code ?? err.message}`);
      link.failing = true;
    });
    socket.on('close', () => {
      if (link.socket !== socket) return;
      link.socket = undefined;
      link.retryAt = Date.now() + link.backoffMs;
      link.backoffMs = Math.min(link.backoffMs * 2, this.o.backoffMaxMs ?? 2000);
    });
  }
}
