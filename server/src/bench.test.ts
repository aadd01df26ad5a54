import { describe, expect, it } from 'vitest';
import { kvTable, soakTable } from './bench.js';

const fig = (name: string, value: number, unit: string, extra: object = {}) => ({ name, value, unit, seconds: 1, checksum: 0, ...extra });

describe('bench tables', () => {
  it('puts FAWN-DS beside LevelDB with the ratio', () => {
    const out = kvTable([
      fig('kv.fawnds.puts', 100000, 'puts/s'), fig('kv.fawnds.gets', 300000, 'gets/s'),
      fig('kv.fawnds.dram_bytes_per_key', 12.58, 'B/key'), fig('kv.fawnds.rss_bytes_per_key', 12.8, 'B/key'),
      fig('kv.leveldb.puts', 50000, 'puts/s'), fig('kv.leveldb.gets', 150000, 'gets/s'),
      fig('kv.leveldb.dram_bytes_per_key', 3.6, 'B/key'), fig('kv.leveldb.rss_bytes_per_key', 11.3, 'B/key'),
    ], 1000000);
    expect(out).toMatch(/random 1 KB puts\/s\s+\| 100\.0k\s+\| 50\.0k\s+\| 2\.00/);
    expect(out).toMatch(/DRAM B\/key.*\| 12\.6\s+\| 3\.6 /);
    expect(out).toContain('1,000,000 keys');
  });
  it('says how to install LevelDB when the bench was built without it', () => {
    const out = kvTable([
      fig('kv.fawnds.puts', 100000, 'puts/s'),
      fig('kv.leveldb.missing', 0, '', { note: 'LevelDB not installed: apt-get install -y libleveldb-dev' }),
    ], 1000);
    expect(out).toContain('not installed');
    expect(out).toContain('LevelDB not installed: apt-get install -y libleveldb-dev');
  });
  it('shows soak counts and failures', () => {
    const out = soakTable([fig('soak.crash_points', 10000, 'crash points', { failures: 2, note: 'seed 1; first failure: x' })]);
    expect(out).toMatch(/10,000 crash points\s+\| 2 /);
    expect(out).toContain('seed 1; first failure: x');
  });
});
