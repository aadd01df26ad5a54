import { describe, expect, it } from 'vitest';
import { kvTable, soakTable } from './bench.js';
import { storesTable } from './benchstores.js';
import { experimentFailures, experimentsTable } from './benchexperiments.js';

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

describe('stores table', () => {
  it('puts the lab LSM beside LevelDB, CONA beside LevelDB and the emulated stores beside WASM', () => {
    const out = storesTable([
      fig('stores.leveldb.wa', 6.94, 'x', { note: 'LevelDB 1.23' }), fig('stores.lsm.wa', 6.73, 'x'),
      fig('stores.leveldb.level2_mb', 98.6, 'MB', { note: '51 files' }), fig('stores.lsm.level2_mb', 99.5, 'MB', { note: '51 files' }),
      fig('stores.lsm_vs_leveldb.wa_ratio', 0.97, 'x', { note: 'PASS: the lab 6.73 against 6.94' }),
      fig('stores.file.cona.a', 100000, 'ops/s'), fig('stores.file.leveldb.a', 40000, 'ops/s'),
      fig('stores.sim.lsm', 46000, 'ops/s', { note: 'lsm on the laptop host' }),
    ], [fig('stores.sim.lsm', 23000, 'ops/s')]);
    expect(out).toMatch(/write amplification\s+\| 6\.73\s+\| 6\.94\s+\| 0\.97/);
    expect(out).toMatch(/level 2 MB \(files\)\s+\| 99\.5 \(51\)\s+\| 98\.6 \(51\)/);
    expect(out).toContain('PASS: the lab 6.73 against 6.94');
    expect(out).toMatch(/YCSB A ops\/s\s+\| 100\.0k\s+\| 40\.0k\s+\| 2\.50/);
    expect(out).toMatch(/lsm\s+\| 46\.0k\s+\| 23\.0k\s+\| 0\.50/);
  });
  it('names a failed check', () => {
    const out = storesTable([fig('stores.lsm_vs_leveldb.wa_ratio', 1.9, 'x', { failures: 1, note: 'FAIL: 4.1 against 2.1' })]);
    expect(out).toContain('stores.lsm_vs_leveldb.wa_ratio: 1 FAILED check(s): FAIL: 4.1 against 2.1');
  });
});

describe('experiments table', () => {
  const row = (id: string, wasm: number, native: number, equal = true, extra: object = {}) =>
    ({ id, lab: id.split('.')[0]!, wasmSeconds: wasm, nativeSeconds: native, equal, ...extra });
  it('shows both times, their ratio, the 2 s flag and whether the JSONs are equal', () => {
    const rows = [row('vector.gap', 0.5, 0.25), row('vector.combined', 2.5, 1.0, false)];
    const out = experimentsTable(rows);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^\| experiment\s+\| lab\s+\| wasm s \| native s \| wasm\/native \| > 2 s \| json\s+\|$/);
    expect(lines[1]).toMatch(/^\|-+\|-+\|/);
    expect(out).toMatch(/\| vector\.gap\s+\| vector \| 0\.500\s+\| 0\.250\s+\| 2\.00\s+\|\s+\| equal\s+\|/);
    expect(out).toMatch(/\| vector\.combined \| vector \| 2\.500\s+\| 1\.000\s+\| 2\.50\s+\| OVER\s+\| DIFFER \|/);
    expect(out).toContain('2 experiments at their defaults, seed 1, one run each');
    expect(experimentsTable(rows, 3)).toContain('seed 1, best of 3 runs each');
    expect(out).toContain('total 3.0 s WASM (node), 1.3 s native');
    expect(out).toContain('1 over (vector.combined)');
    expect(experimentFailures(rows)).toBe(1);
  });
  it('says when every experiment is within the budget, and names a failed run', () => {
    const rows = [row('queues.mm1', 2.0, 1.0), row('fawnds.x', NaN, 0.1, false, { error: 'WASM run failed: boom' })];
    const out = experimentsTable(rows);
    expect(out).toContain('all within');
    expect(out).toMatch(/\| fawnds\.x\s+\| fawnds \| -\s+\| 0\.100\s+\| -\s+\|\s+\| ERROR\s+\|/);
    expect(out).toContain('fawnds.x: WASM run failed: boom');
    expect(experimentFailures(rows)).toBe(1);
  });
});
