/**
 * The memcached text protocol subset, parsed (no I/O): `get <key>+` (several keys = a
 * multiget), `set <key> <flags> <exptime> <bytes> [noreply]` + data block, `delete <key>
 * [noreply]` (an old-style trailing "0" is accepted), `version`, `quit`. Lines end in "\n"
 * ("\r\n" from real clients). Errors use memcached's own replies: ERROR for an unknown
 * command, CLIENT_ERROR for a malformed one, SERVER_ERROR object too large for cache for a
 * value over the limit. A `set` refused on its command line (too large, or malformed) is
 * answered at once, and then, as memcached 1.4 does (conn_swallow), the data block it
 * announced — <bytes> + 2 bytes — is swallowed: read and dropped, never buffered or parsed as
 * commands, however large (`set k 0 0 2147483648` answers at once, then swallows 2 GiB; the
 * server's partial-command limit closes a connection that stops sending it). A line longer than
 * MEMCACHED_LINE_MAX_BYTES closes the connection. Memory held per connection is bounded by
 * one line or one value.
 */
import { MEMCACHED_LINE_MAX_BYTES, MULTIGET_MAX_KEYS, VALUE_MAX_BYTES } from './limits.js';
import { keyError } from './values.js';

export type McCommand =
  | { type: 'get'; keys: Buffer[] }
  | { type: 'set'; key: Buffer; flags: number; exptime: number; data: Buffer; noreply: boolean }
  | { type: 'delete'; key: Buffer; noreply: boolean }
  | { type: 'version' }
  | { type: 'quit' }
  | { type: 'error'; reply: string; close: boolean };

type State =
  | { mode: 'line' }
  | { mode: 'data'; need: number; set: Omit<Extract<McCommand, { type: 'set' }>, 'data'> }
  | { mode: 'swallow'; left: number };

const BAD_FORMAT = 'CLIENT_ERROR bad command line format';
const U32_MAX = 0xffffffff;
const TOO_LONG = Symbol('too long');

export class McParser {
  private chunks: Buffer[] = [];
  private held = 0;
  private state: State = { mode: 'line' };
  private dead = false;

  /** Bytes held for a command or value not yet complete. */
  get pending(): number {
    return this.held;
  }

  /** Whether a command is under way: a partial line, a data block, or a block being swallowed. */
  get partial(): boolean {
    return this.held > 0 || this.state.mode !== 'line';
  }

  push(data: Buffer): McCommand[] {
    const out: McCommand[] = [];
    if (this.dead) return out;
    if (data.length) {
      this.chunks.push(data);
      this.held += data.length;
    }
    for (;;) {
      const s = this.state;
      if (s.mode === 'swallow') {
        const n = Math.min(s.left, this.held);
        this.take(n);
        s.left -= n;
        if (s.left > 0) break;
        this.state = { mode: 'line' };
      } else if (s.mode === 'data') {
        if (this.held < s.need + 2) break;
        const block = this.take(s.need + 2);
        this.state = { mode: 'line' };
        if (block[s.need] !== 0x0d || block[s.need + 1] !== 0x0a) {
          out.push({ type: 'error', reply: 'CLIENT_ERROR bad data chunk', close: false });
        } else {
          out.push({ ...s.set, data: Buffer.from(block.subarray(0, s.need)) });
        }
      } else {
        const line = this.line();
        if (line === null || line === TOO_LONG) {
          if (line === TOO_LONG || this.held > MEMCACHED_LINE_MAX_BYTES) {
            out.push({ type: 'error', reply: 'CLIENT_ERROR line too long', close: true });
            this.dead = true;
            this.chunks = [];
            this.held = 0;
          }
          break;
        }
        const cmd = this.command(line);
        if (cmd) out.push(cmd);
        if (cmd?.type === 'quit') {
          this.dead = true;
          break;
        }
      }
    }
    return out;
  }

  /** The next complete line without its terminator, null if there is none yet, or TOO_LONG. */
  private line(): string | null | typeof TOO_LONG {
    const joined = this.chunks.length > 1 ? Buffer.concat(this.chunks) : this.chunks[0];
    if (!joined) return null;
    this.chunks = [joined];
    const nl = joined.indexOf(0x0a);
    if (nl < 0) return null;
    if (nl + 1 > MEMCACHED_LINE_MAX_BYTES) return TOO_LONG;
    const end = nl > 0 && joined[nl - 1] === 0x0d ? nl - 1 : nl;
    const text = joined.subarray(0, end).toString('latin1');
    this.take(nl + 1);
    return text;
  }

  private take(n: number): Buffer {
    const joined = this.chunks.length > 1 ? Buffer.concat(this.chunks) : (this.chunks[0] ?? Buffer.alloc(0));
    const head = joined.subarray(0, n);
    const rest = joined.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.held = rest.length;
    return head;
  }

  private command(line: string): McCommand | null {
    const t = line.split(' ').filter((w) => w !== '');
    const key = (s: string) => Buffer.from(s, 'latin1');
    const bad = (why = BAD_FORMAT): McCommand => ({ type: 'error', reply: why, close: false });
    switch (t[0]) {
      case 'get': {
        const keys = t.slice(1).map(key);
        if (keys.length === 0) return { type: 'error', reply: 'ERROR', close: false };
        if (keys.length > MULTIGET_MAX_KEYS) return bad(`CLIENT_ERROR too many keys (${keys.length}; the limit is ${MULTIGET_MAX_KEYS})`);
        if (keys.some((k) => keyError(k, true))) return bad();
        return { type: 'get', keys };
      }
      case 'set': {
        if (t.length !== 5 && t.length !== 6) return bad();
        const [, k, flags, exptime, bytes, noreply] = t as [string, string, string, string, string, string?];
        if (!/^\d{1,10}$/.test(bytes)) return bad();
        const n = Number(bytes);
        const skip = (reply: string): McCommand => {
          this.state = { mode: 'swallow', left: n + 2 };
          return { type: 'error', reply, close: false };
        };
        if (n > VALUE_MAX_BYTES) return skip('SERVER_ERROR object too large for cache');
        if (keyError(key(k), true) || !/^\d{1,10}$/.test(flags) || Number(flags) > U32_MAX || !/^-?\d{1,10}$/.test(exptime)
          || (noreply !== undefined && noreply !== 'noreply')) return skip(BAD_FORMAT);
        this.state = { mode: 'data', need: n,
          set: { type: 'set', key: key(k), flags: Number(flags), exptime: Number(exptime), noreply: noreply === 'noreply' } };
        return null;
      }
      case 'delete': {
        const rest = t.slice(2);
        if (t.length < 2 || keyError(key(t[1]!), true)) return bad();
        if (rest[0] === '0') rest.shift();
        if (rest.length > 1 || (rest.length === 1 && rest[0] !== 'noreply')) {
          return bad('CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]');
        }
        return { type: 'delete', key: key(t[1]!), noreply: rest[0] === 'noreply' };
      }
      case 'version':
        return t.length === 1 ? { type: 'version' } : { type: 'error', reply: 'ERROR', close: false };
      case 'quit': // memcached 1.4 (process_command) takes `version` and `quit` only alone: else ERROR
        return t.length === 1 ? { type: 'quit' } : { type: 'error', reply: 'ERROR', close: false };
      default:
        return { type: 'error', reply: 'ERROR', close: false };
    }
  }
}
