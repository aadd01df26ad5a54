/**
 * Keys and values as clients see them. A key is 1..KEY_MAX_BYTES bytes (memcached's limit;
 * on the memcached port also no spaces or control characters, which its text protocol cannot
 * carry). A stored FAWN-KV value is [u32 big-endian flags][data]: memcached's opaque client
 * flags travel with the data (HTTP stores flags 0) and are stripped on the way out.
 */
import { KEY_MAX_BYTES, VALUE_MAX_BYTES } from './limits.js';

/** Why `key` is not acceptable, or null. `textSafe`: the memcached port's extra rule. */
export function keyError(key: Buffer, textSafe = false): string | null {
  if (key.length === 0) return 'the key is empty';
  if (key.length > KEY_MAX_BYTES) return `the key is ${key.length} bytes; the limit is ${KEY_MAX_BYTES}`;
  if (textSafe && key.some((c) => c <= 0x20 || c === 0x7f)) return 'the key contains a space or control character';
  return null;
}

/** Why a value of `bytes` is not acceptable, or null. */
export function valueError(bytes: number): string | null {
  return bytes > VALUE_MAX_BYTES ? `the value is ${bytes} bytes; the limit is ${VALUE_MAX_BYTES}` : null;
}

export function packValue(flags: number, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(4 + data.length);
  out.writeUInt32BE(flags >>> 0, 0);
  data.copy(out, 4);
  return out;
}

/** The flags and data of a stored value; a value shorter than its header reads as flags 0, all data. */
export function unpackValue(stored: Buffer): { flags: number; data: Buffer } {
  if (stored.length < 4) return { flags: 0, data: stored };
  return { flags: stored.readUInt32BE(0), data: stored.subarray(4) };
}
