/**
 * Reading an HTTP request body with a byte cap: a declared or actual length over the cap
 * settles as 'too-large' at once (the rest is not read; the connection is closed after the
 * reply), so one request can hold at most `max` bytes.
 */
import type { IncomingMessage } from 'node:http';

export type Body = { ok: true; bytes: Buffer } | { ok: false; why: 'too-large' | 'aborted' };

export function readBody(req: IncomingMessage, max: number): Promise<Body> {
  return new Promise((done) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > max) {
      done({ ok: false, why: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let n = 0;
    let settled = false;
    const settle = (b: Body) => {
      if (!settled) {
        settled = true;
        done(b);
      }
    };
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > max) {
        req.pause();
        settle({ ok: false, why: 'too-large' });
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => settle({ ok: true, bytes: Buffer.concat(chunks) }));
    req.on('aborted', () => settle({ ok: false, why: 'aborted' }));
    req.on('error', () => settle({ ok: false, why: 'aborted' }));
    req.on('close', () => settle({ ok: false, why: 'aborted' }));
  });
}
