/**
 * The live event stream for the Cluster page: a WebSocket at /cluster/events on the front-end's
 * HTTP port. A client gets {"type":"snapshot",...} at once, then {"type":"status",...} about
 * twice a second and {"type":"event",...} for each membership event. It is read-only: what a
 * client sends is ignored (frames over 4 KiB close it). Upgrades need the token when there is
 * one, and are refused from another site (Origin) or, loopback-only, a foreign Host (DNS
 * rebinding) — a browser lets any page open a WebSocket to 127.0.0.1. A client that stops
 * reading (over 4 MiB buffered) is closed rather than buffered without bound.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { authorised } from '../http.js';
import { crossSiteError } from './api.js';
import type { ClusterMessage, ClusterViewWire } from '../wire/cluster.js';

export const EVENTS_PATH = '/cluster/events';
const MAX_BUFFERED = 4 << 20;

export interface EventHubOptions {
  token?: string;
  snapshot: () => ClusterViewWire;
  log: (line: string) => void;
}

export class EventHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4096, perMessageDeflate: false });
  private readonly clients = new Set<WebSocket>();

  constructor(private readonly o: EventHubOptions) {}

  get size(): number {
    return this.clients.size;
  }

  /** Serves upgrades to EVENTS_PATH on `server`; any other upgrade is refused. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  broadcast(message: ClusterMessage): void {
    const text = JSON.stringify(message);
    for (const ws of this.clients) {
      if (ws.bufferedAmount > MAX_BUFFERED) {
        this.o.log('events: closed a client that stopped reading');
        ws.terminate();
        continue;
      }
      ws.send(text);
    }
  }

  close(): void {
    for (const ws of this.clients) ws.terminate();
    this.wss.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refuse = (status: number, why: string) => {
      const body = JSON.stringify({ ok: false, error: why });
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\n`
        + `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    };
    socket.on('error', () => {});
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://lab.invalid');
    } catch {
      return refuse(404, 'malformed request URL');
    }
    if (url.pathname !== EVENTS_PATH) return refuse(404, `no WebSocket at ${url.pathname.slice(0, 100)}; use ${EVENTS_PATH}`);
    if (this.o.token !== undefined && !authorised(req, url, this.o.token)) return refuse(401, 'this server requires its token');
    const cross = crossSiteError(req, this.o.token !== undefined, true);
    if (cross) return refuse(403, cross);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.clients.add(ws);
      ws.on('close', () => this.clients.delete(ws));
      ws.on('error', () => ws.terminate());
      ws.on('message', () => {}); // read-only stream
      ws.send(JSON.stringify({ type: 'snapshot', ...this.o.snapshot() }));
    });
  }
}
