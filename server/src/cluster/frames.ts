/**
 * Framing on peer TCP connections: a frame is a 4-byte big-endian length L
 * (1 ≤ L ≤ FRAME_MAX_BYTES) and L payload bytes. `FrameReader` turns a byte stream into
 * frames and reports the first bad length (the caller closes the connection); it never
 * buffers more than one frame. A payload starting with '{' is a JSON control frame
 * (hello.ts); one starting with CODEC_MAGIC is one codec-encoded fawnkv::Message.
 */
import { FRAME_MAX_BYTES } from './limits.js';

export const CODEC_MAGIC = 0xfa;
export const JSON_FIRST_BYTE = 0x7b; // '{'

export type FrameKind = 'json' | 'codec' | 'unknown';

export function frameKind(payload: Uint8Array): FrameKind {
  if (payload[0] === JSON_FIRST_BYTE) return 'json';
  if (payload[0] === CODEC_MAGIC) return 'codec';
  return 'unknown';
}

/** One frame's bytes on the wire. Throws on an empty or oversize payload (a programmer error). */
export function encodeFrame(payload: Uint8Array): Buffer {
  if (payload.length < 1 || payload.length > FRAME_MAX_BYTES) {
    throw new RangeError(`frame payload of ${payload.length} bytes is outside [1, ${FRAME_MAX_BYTES}]`);
  }
  const out = Buffer.allocUnsafe(4 + payload.length);
  out.writeUInt32BE(payload.length, 0);
  out.set(payload, 4);
  return out;
}

export class FrameError extends Error {}

export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failed: FrameError | null = null;

  /** The largest payload accepted; may be raised later (a peer port accepts only a small hello first). */
  constructor(public maxBytes = FRAME_MAX_BYTES) {}

  /** Bytes held for a frame not yet complete. */
  get pending(): number {
    return this.buffered;
  }

  /**
   * Adds bytes; returns the frames they complete, in order. After a bad length it throws
   * FrameError (naming the length) on this and every later call.
   */
  push(data: Uint8Array): Buffer[] {
    this.append(data);
    const frames: Buffer[] = [];
    for (let f = this.next(); f !== null; f = this.next()) frames.push(f);
    return frames;
  }

  /** Adds bytes without parsing them (then take frames one at a time with next()). */
  append(data: Uint8Array): void {
    if (this.failed) throw this.failed;
    if (data.length > 0) {
      this.chunks.push(Buffer.from(data.buffer, data.byteOffset, data.length));
      this.buffered += data.length;
    }
  }

  /**
   * The next complete frame, or null. Each frame is checked against `maxBytes` as it is when
   * the frame is taken, so a reader may raise the limit after the first frame (a hello) even
   * when later frames arrived in the same chunk. Throws FrameError after a bad length.
   */
  next(): Buffer | null {
    if (this.failed) throw this.failed;
    if (this.buffered < 4) return null;
    const len = this.peek(4).readUInt32BE(0);
    if (len < 1 || len > this.maxBytes) {
      this.failed = new FrameError(`bad frame length ${len} (must be 1..${this.maxBytes})`);
      this.chunks = [];
      this.buffered = 0;
      throw this.failed;
    }
    if (this.buffered < 4 + len) return null;
    return this.take(4 + len).subarray(4);
  }

  private peek(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length >= n) return first;
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }

  private take(n: number): Buffer {
    const joined = this.peek(n);
    const out = Buffer.from(joined.subarray(0, n)); // a copy: the caller may keep it
    const rest = joined.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered -= n;
    return out;
  }
}
