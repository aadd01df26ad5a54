/**
 * `npm run bench`'s stores suite (issue 17), printed as tables from the native figures
 * (fawnlab_bench --suite stores, wasm-core/bench/stores_bench.h) and the WASM build's emulation
 * speeds (runStoresBenchmarks):
 *  - the lab's LSM against real LevelDB on the same YCSB load: write amplification (must be
 *    within 25%: the figure carries a failure otherwise), bytes per level, table cache per key;
 *  - CONA on a real file against real LevelDB under YCSB A, B, C, D, F: wall-clock ops/s and
 *    DRAM per key;
 *  - every lab store emulated: operations per wall second, native and WASM.
 */
import type { Figure } from './bench.js';
import { table } from './table.js';

function fmt(v: number): string {
  return v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(1)}k` : v.toFixed(1);
}

export function storesTable(figs: Figure[], wasm: Figure[] = []): string {
  const by = new Map(figs.map((f) => [f.name, f]));
  const get = (n: string) => by.get(n);
  let out = '';
  const missing = get('stores.leveldb.missing');
  if (missing) out += `${missing.note ?? 'LevelDB not installed'}\n\n`;

  // The LSM against LevelDB.
  const lw = get('stores.lsm.wa');
  const rw = get('stores.leveldb.wa');
  if (lw && rw) {
    const rows = [['LSM vs LevelDB (same YCSB load)', 'lab LSM', 'LevelDB', 'lab / LevelDB']];
    rows.push(['write amplification', lw.value.toFixed(2), rw.value.toFixed(2), (lw.value / rw.value).toFixed(2)]);
    for (let l = 0; l < 7; l++) {
      const a = get(`stores.lsm.level${l}_mb`);
      const b = get(`stores.leveldb.level${l}_mb`);
      if (!a && !b) continue;
      rows.push([`level ${l} MB (files)`, a ? `${a.value.toFixed(1)} (${(a.note ?? '').split(' ')[0]})` : '-',
        b ? `${b.value.toFixed(1)} (${(b.note ?? '').split(' ')[0]})` : '-', '']);
    }
    const ld = get('stores.lsm.dram_bytes_per_key');
    const rd = get('stores.leveldb.table_cache_bytes_per_key');
    if (ld && rd) rows.push(['DRAM B/key (lab: + memtable)', ld.value.toFixed(2), rd.value.toFixed(2), '']);
    out += table(rows);
    const check = get('stores.lsm_vs_leveldb.wa_ratio');
    if (check) out += `${check.note ?? ''}\n`;
    for (const n of ['stores.lsm.bloom_equals_leveldb', 'stores.leveldb.wa', 'stores.lsm.wa']) {
      const f = get(n);
      if (f?.note) out += `${n}: ${f.note}\n`;
    }
    out += '\n';
  }

  // CONA on a file against LevelDB.
  const rows = [['CONA on a file vs LevelDB (wall clock)', 'CONA', 'LevelDB', 'CONA / LevelDB']];
  for (const w of ['load', 'a', 'b', 'c', 'd', 'f']) {
    const a = get(`stores.file.cona.${w}`);
    const b = get(`stores.file.leveldb.${w}`);
    if (!a && !b) continue;
    rows.push([w === 'load' ? 'load ops/s' : `YCSB ${w.toUpperCase()} ops/s`, a ? fmt(a.value) : '-', b ? fmt(b.value) : '-',
      a && b && b.value > 0 ? (a.value / b.value).toFixed(2) : '-']);
  }
  const cd = get('stores.file.cona.dram_bytes_per_key');
  const ldd = get('stores.file.leveldb.dram_bytes_per_key');
  if (cd || ldd) {
    rows.push(['DRAM B/key', cd ? cd.value.toFixed(2) : '-', ldd ? ldd.value.toFixed(2) : '-',
      cd && ldd && ldd.value > 0 ? (cd.value / ldd.value).toFixed(2) : '-']);
  }
  if (rows.length > 1) {
    out += table(rows);
    for (const n of ['stores.file.cona.load', 'stores.file.cona.a', 'stores.file.cona.dram_bytes_per_key',
      'stores.file.leveldb.load', 'stores.file.leveldb.dram_bytes_per_key']) {
      const f = get(n);
      if (f?.note) out += `${n}: ${f.note}\n`;
    }
    out += '\n';
  }

  // The lab's stores, emulated.
  const sims = figs.filter((f) => f.name.startsWith('stores.sim.'));
  if (sims.length) {
    const wasmBy = new Map(wasm.map((f) => [f.name, f]));
    const srows = [['emulated store (load + YCSB A)', 'native ops/s', 'wasm ops/s', 'wasm/native']];
    for (const f of sims) {
      const w = wasmBy.get(f.name);
      srows.push([f.name.slice('stores.sim.'.length), f.value > 0 ? fmt(f.value) : '-', w && w.value > 0 ? fmt(w.value) : '-',
        w && f.value > 0 && w.value > 0 ? (w.value / f.value).toFixed(2) : '-']);
    }
    out += table(srows);
    if (sims[0]?.note) out += `${sims[0].name}: ${sims[0].note}\n`;
  }
  for (const f of [...figs, ...wasm]) if (f.failures) out += `${f.name}: ${f.failures} FAILED check(s): ${f.note ?? ''}\n`;
  return out;
}
