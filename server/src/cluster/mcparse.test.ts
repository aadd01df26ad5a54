// The memcached text-protocol parser: every command of the subset, every split of a
// pipelined stream, and memcached's own error replies for malformed and oversize input.
import { describe, expect, it } from 'vitest';
import { MEMCACHED_LINE_MAX_BYTES, VALUE_MAX_BYTES } from './limits.js';
import { McParser, type McCommand } from './mcparse.js';

const show = (cmds: McCommand[]) => cmds.map((c) => {
  switch (c.type) {
    case 'get': return `get ${c.keys.map(String).join(',')}`;
    case 'set': return `set ${c.key} ${c.flags} ${c.exptime} ${JSON.stringify(c.data.toString())}${c.noreply ? ' noreply' : ''}`;
    case 'delete': return `delete ${c.key}${c.noreply ? ' noreply' : ''}`;
    case 'error': return `! ${c.reply}${c.close ? ' (close)' : ''}`;
    default: return c.type;
  }
});
const parse = (s: string | Buffer) => show(new McParser().push(Buffer.from(s)));

describe('McParser', () => {
  it('parses the subset, pipelined, across every split', () => {
    const stream = 'get a\r\nget a b c\r\nset k 5 0 3\r\nv\r\n\r\nset k2 4294967295 0 0 noreply\r\n\r\n'
      + 'delete k\r\ndelete k 0 noreply\r\nversion\r\nget  spaced   keys \n';
    const want = ['get a', 'get a,b,c', 'set k 5 0 "v\\r\\n"', 'set k2 4294967295 0 "" noreply', 'delete k',
      'delete k noreply', 'version', 'get spaced,keys'];
    expect(parse(stream)).toEqual(want);
    const wire = Buffer.from(stream);
    for (let cut = 0; cut <= wire.length; cut++) {
      const p = new McParser();
      expect(show([...p.push(wire.subarray(0, cut)), ...p.push(wire.subarray(cut))]), `cut ${cut}`).toEqual(want);
      expect(p.pending).toBe(0);
    }
  });

  it('stops at quit', () => {
    expect(parse('version\r\nquit\r\nversion\r\n')).toEqual(['version', 'quit']);
  });

  it('answers malformed commands as memcached does', () => {
    const cases: Array<[string, string[]]> = [
      ['\r\n', ['! ERROR']],
      ['gets a\r\n', ['! ERROR']],
      ['get\r\n', ['! ERROR']],
      ['version x\r\n', ['! ERROR']], // memcached 1.4: version and quit take no arguments
      ['quit x\r\nversion\r\n', ['! ERROR', 'version']],
      [`get ${'k'.repeat(251)}\r\n`, ['! CLIENT_ERROR bad command line format']],
      ['get a\x01b\r\n', ['! CLIENT_ERROR bad command line format']],
      ['set k 0 0\r\n', ['! CLIENT_ERROR bad command line format']],
      ['set k 0 0 -1\r\n', ['! CLIENT_ERROR bad command line format']],
      ['set k x 0 1\r\nv\r\nversion\r\n', ['! CLIENT_ERROR bad command line format', 'version']],
      ['set k 4294967296 0 1\r\nv\r\n', ['! CLIENT_ERROR bad command line format']],
      ['set k 0 0 1 yes\r\nv\r\n', ['! CLIENT_ERROR bad command line format']],
      ['set k 0 0 1\r\nvXY', ['! CLIENT_ERROR bad data chunk']],
      ['delete\r\n', ['! CLIENT_ERROR bad command line format']],
      ['delete k 5\r\n', ['! CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]']],
      ['delete k noreply extra\r\n', ['! CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]']],
    ];
    for (const [input, want] of cases) expect(parse(input), JSON.stringify(input)).toEqual(want);
    const many = `get ${Array.from({ length: 257 }, (_, i) => `k${i}`).join(' ')}\r\n`;
    expect(many.length).toBeLessThan(MEMCACHED_LINE_MAX_BYTES);
    expect(parse(many)).toEqual(['! CLIENT_ERROR too many keys (257; the limit is 256)']);
  });

  it('refuses an oversize value at once, then swallows its block without holding it', () => {
    const p = new McParser();
    const n = VALUE_MAX_BYTES + 1;
    expect(show(p.push(Buffer.from(`set big 0 0 ${n}\r\n`)))).toEqual(['! SERVER_ERROR object too large for cache']);
    expect(p.partial).toBe(true);
    for (let sent = 0; sent < n; sent += 65536) {
      expect(p.push(Buffer.alloc(Math.min(65536, n - sent), 120))).toEqual([]);
      expect(p.pending).toBe(0);
    }
    expect(show(p.push(Buffer.from('\r\nversion\r\n')))).toEqual(['version']);
    expect(p.partial).toBe(false);
  });

  it('answers a 2 GiB set at once and swallows what follows as its data (memcached 1.4 conn_swallow)', () => {
    const p = new McParser();
    expect(show(p.push(Buffer.from('set k 0 0 2147483648\r\n')))).toEqual(['! SERVER_ERROR object too large for cache']);
    expect(p.push(Buffer.from('get k\r\nversion\r\n'))).toEqual([]); // part of the announced block
    expect([p.partial, p.pending]).toEqual([true, 0]);
  });

  it('accepts a value of exactly the limit and refuses one byte more', () => {
    const at = new McParser().push(Buffer.concat([Buffer.from(`set k 0 0 ${VALUE_MAX_BYTES}\r\n`), Buffer.alloc(VALUE_MAX_BYTES, 98), Buffer.from('\r\n')]));
    expect(at.map((c) => c.type)).toEqual(['set']);
    expect(show(new McParser().push(Buffer.from(`set k 0 0 ${VALUE_MAX_BYTES + 1}\r\n`)))).toEqual(['! SERVER_ERROR object too large for cache']);
  });

  it('accepts the largest value', () => {
    const data = Buffer.alloc(VALUE_MAX_BYTES, 97);
    const cmds = new McParser().push(Buffer.concat([Buffer.from(`set k 0 0 ${VALUE_MAX_BYTES}\r\n`), data, Buffer.from('\r\n')]));
    expect(cmds).toHaveLength(1);
    expect((cmds[0] as Extract<McCommand, { type: 'set' }>).data.equals(data)).toBe(true);
  });

  it('closes on a line over the limit, with or without its newline', () => {
    expect(parse('get ' + 'k'.repeat(MEMCACHED_LINE_MAX_BYTES))).toEqual(['! CLIENT_ERROR line too long (close)']);
    expect(parse('x'.repeat(MEMCACHED_LINE_MAX_BYTES) + '\r\n')).toEqual(['! CLIENT_ERROR line too long (close)']);
    const p = new McParser();
    expect(p.push(Buffer.from('x'.repeat(MEMCACHED_LINE_MAX_BYTES - 1)))).toEqual([]);
    expect(show(p.push(Buffer.from('xx')))).toEqual(['! CLIENT_ERROR line too long (close)']);
    expect(p.push(Buffer.from('version\r\n'))).toEqual([]);
  });
});
