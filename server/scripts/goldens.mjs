// Every experiment's result, pinned: runs each registered experiment at its default
// parameters with seed 1 through the native CLI (byte-identical to `npm run repro -- <id>
// --seed 1 --format json`, which the WebAssembly build gives; web/src/model/core.test.ts
// checks the two agree) and compares the SHA-256 of its JSON with wasm-core/golden/experiments.sha256.
//
//   node server/scripts/goldens.mjs            check (npm test's `goldens` step)
//   node server/scripts/goldens.mjs --record   rewrite the file (a deliberate model change;
//                                              say why in the commit)
// A refactor must leave the file untouched. A new experiment is reported as missing until it
// is recorded; a removed one as gone.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { log, ROOT } from './util.mjs';

const CLI = join(ROOT, 'wasm-core/build/native/fawnlab_cli');
const FILE = join(ROOT, 'wasm-core/golden/experiments.sha256');

function cli(args) {
  const r = spawnSync(CLI, args, { cwd: ROOT, maxBuffer: 1 << 28, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fawnlab_cli ${args.join(' ')} failed (exit ${r.status ?? r.signal}): ${r.stderr}`);
  return r.stdout;
}

/** `fawnlab_cli run id --seed 1 --format json`'s SHA-256 (hex). */
function hashRun(id) {
  const args = ['run', id, '--seed', '1', '--format', 'json'];
  return new Promise((resolve, reject) => {
    execFile(CLI, args, { cwd: ROOT, maxBuffer: 1 << 28, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`fawnlab_cli ${args.join(' ')} failed (exit ${err.code ?? err.signal}): ${stderr}`));
      else resolve(createHash('sha256').update(stdout).digest('hex'));
    });
  });
}

/** {id: sha256 hex} for every experiment the core registers, in registry order; one run per core at a time. */
export async function hashAll() {
  const ids = JSON.parse(cli(['list'])).map((e) => e.id);
  const hashes = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      hashes[i] = await hashRun(ids[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
  return Object.fromEntries(ids.map((id, i) => [id, hashes[i]]));
}

function parse(text) {
  const m = {};
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const [hash, id] = t.split(/\s+/);
    m[id] = hash;
  }
  return m;
}

/** Returns the differences (empty when every result matches). */
export async function checkGoldens() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const want = parse(readFileSync(FILE, 'utf8'));
  const got = await hashAll();
  const problems = [];
  for (const [id, h] of Object.entries(got)) {
    if (!(id in want)) problems.push(`${id}: not recorded (new experiment? node server/scripts/goldens.mjs --record)`);
    else if (want[id] !== h) problems.push(`${id}: result changed (sha256 ${h.slice(0, 12)}…, recorded ${want[id].slice(0, 12)}…); compare with fawnlab_cli run ${id} --seed 1 --format json`);
  }
  for (const id of Object.keys(want)) if (!(id in got)) problems.push(`${id}: recorded but no longer registered`);
  return { problems, count: Object.keys(got).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const unknown = process.argv.slice(2).filter((a) => a !== '--record');
  if (unknown.length) {
    log(`goldens: unknown argument '${unknown[0]}'; usage: node server/scripts/goldens.mjs [--record]`);
    process.exit(2);
  }
  if (process.argv.includes('--record')) {
    const got = await hashAll();
    const lines = ['# sha256 of `fawnlab_cli run <id> --seed 1 --format json` (default parameters); server/scripts/goldens.mjs'];
    for (const [id, h] of Object.entries(got)) lines.push(`${h}  ${id}`);
    writeFileSync(FILE, lines.join('\n') + '\n');
    log(`goldens: recorded ${Object.keys(got).length} experiments in wasm-core/golden/experiments.sha256`);
  } else {
    const { problems, count } = await checkGoldens();
    if (problems.length) {
      for (const p of problems) log(`goldens: ${p}`);
      process.exit(1);
    }
    log(`goldens: all ${count} experiments give their recorded JSON, byte for byte`);
  }
}
