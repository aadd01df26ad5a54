/**
 * A cap on concurrent client connections shared by the front-end's HTTP, WebSocket and
 * memcached ports: a connection over the cap is closed at once (before it is read).
 */
import type { Socket } from 'node:net';
import { CLIENT_CONNECTIONS_MAX } from './limits.js';

export class ConnectionGate {
  private open = 0;
  refused = 0;

  constructor(readonly max = CLIENT_CONNECTIONS_MAX, private readonly log: (line: string) => void = () => {}) {}

  get count(): number {
    return this.open;
  }

  /** Counts `socket` until it closes, or destroys it if the cap is reached. */
  admit(socket: Socket, port: string): boolean {
    if (this.open >= this.max) {
      this.refused++;
      if (this.refused === 1 || this.refused % 100 === 0) {
        this.log(`${port}: refused a connection from ${socket.remoteAddress}: ${this.open} client connections open (the limit; ${this.refused} refused so far)`);
      }
      socket.destroy();
      return false;
    }
    this.open++;
    socket.once('close', () => this.open--);
    return true;
  }
}
