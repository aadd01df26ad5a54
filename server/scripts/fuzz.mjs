// `npm run fuzz [-- --seconds N] [--only json]`: runs each libFuzzer target in
// wasm-core/build/fuzz (clang, ASan + UBSan) for N seconds (default 60) on a working copy of its
// checked-in corpus, and reports the runs done. A crash stops with libFuzzer's report and the
// reproducer file; add that file to wasm-core/fuzz/corpus/<name>/ so every test run replays it.
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { log, ROOT } from './util.mjs';

export function runFuzzers(args) {
  const opt = (name, def) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def;
  };
  const seconds = Number(opt('--seconds', '60'));
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 86400) {
    log('fawnlab fuzz: --seconds must be an integer in [1, 86400]');
    process.exit(2);
  }
  const only = opt('--only', null);
  const names = readdirSync(join(ROOT, 'wasm-core/fuzz')).filter((f) => f.endsWith('_fuzz.cc')).map((f) => f.slice(0, -'_fuzz.cc'.length));
  if (only && !names.includes(only)) {
    log(`fawnlab fuzz: no target '${only}'; targets: ${names.join(', ')}`);
    process.exit(2);
  }
  for (const name of names.filter((n) => !only || n === only)) {
    const bin = join(ROOT, 'wasm-core/build/fuzz', `${name}_fuzz`);
    const work = join(ROOT, 'wasm-core/build/fuzz/corpus', name);
    mkdirSync(work, { recursive: true });
    const seeds = join(ROOT, 'wasm-core/fuzz/corpus', name);
    if (existsSync(seeds)) cpSync(seeds, work, { recursive: true });
    log(`fawnlab fuzz: ${name} for ${seconds} s…`);
    const r = spawnSync(bin, [`-max_total_time=${seconds}`, '-max_len=4096', `-artifact_prefix=${work}/crash-`, work], {
      encoding: 'utf8',
    });
    const done = /Done (\d+) runs in (\d+) second/.exec(r.stderr ?? '');
    if (r.status !== 0) {
      log((r.stderr ?? '').split('\n').slice(-40).join('\n'));
      log(`fawnlab fuzz: ${name} FAILED (exit ${r.status}); the reproducer is in ${work}/crash-*`);
      process.exit(1);
    }
    process.stdout.write(`${name}: ${done ? `${done[1]} runs in ${done[2]} s` : 'done'}, no crash\n`);
  }
}
