// Build steps, each skipped when its outputs are newer than its sources ("build what is
// missing"). Build logs go to stderr.
//
//   native  wasm-core/build/native   GoogleTest, CLI, benches, fuzz replays   (cmake + ninja)
//   asan    wasm-core/build/asan     the same with AddressSanitizer + UBSan
//   wasm    wasm-core/dist           fawnlab_web.mjs/.wasm (browser), fawnlab_node.cjs (Node)
//           wasm-core/dist/sessions.json   every live session's schema (@wasm/sessions.json), written
//                                    after the native or the WASM build from what it built
//   server  server/dist              the Node server and CLI (tsc)
//   web     web/dist                 the lab (vite), then .br/.gz beside its files (precompress.mjs)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { precompress } from './precompress.mjs';
import { emscriptenEnv } from './toolchain.mjs';
import { isStale, log, ROOT, run, since } from './util.mjs';

const CORE_SOURCES = ['wasm-core/src', 'wasm-core/bindings', 'wasm-core/bench', 'wasm-core/tools', 'wasm-core/fuzz',
  'wasm-core/CMakeLists.txt'];

/** True when ccache is on PATH. */
function haveCcache() {
  return spawnSync('ccache', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * `env` with ccache as the compiler launcher when it is installed and none is set: CMake reads
 * CMAKE_<LANG>_COMPILER_LAUNCHER at configure. Paths are taken relative to the checkout
 * (CCACHE_BASEDIR, CCACHE_NOHASHDIR), so two clones of the same commit share their objects.
 * Without ccache nothing changes.
 */
function withCcache(env) {
  if (env.CMAKE_CXX_COMPILER_LAUNCHER !== undefined || !haveCcache()) return env;
  return { ...env, CMAKE_CXX_COMPILER_LAUNCHER: 'ccache', CMAKE_C_COMPILER_LAUNCHER: 'ccache',
    CCACHE_BASEDIR: env.CCACHE_BASEDIR ?? ROOT, CCACHE_NOHASHDIR: env.CCACHE_NOHASHDIR ?? '1' };
}

function cmakeBuild(dir, extraArgs, baseEnv, configure = 'cmake', targets = []) {
  const t0 = performance.now();
  const env = withCcache(baseEnv);
  const cmd = configure === 'emcmake' ? ['emcmake', 'cmake'] : ['cmake'];
  run(cmd[0], [...cmd.slice(1), '-S', 'wasm-core', '-B', dir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release',
    ...extraArgs], { env });
  run('ninja', ['-C', dir, ...targets], { env });
  return since(t0);
}

/** The fuzz targets' replay drivers (one per wasm-core/fuzz/*_fuzz.cc), which ctest runs. */
function fuzzReplayTargets() {
  return readdirSync(join(ROOT, 'wasm-core/fuzz')).filter((f) => f.endsWith('_fuzz.cc')).map((f) => f.slice(0, -3));
}

/** True when LevelDB is installed but `dir` was configured before it was (so the bench lacks it). */
function levelDbAppeared(dir) {
  const cache = join(ROOT, dir, 'CMakeCache.txt');
  return existsSync('/usr/include/leveldb/db.h') && existsSync(cache) &&
    readFileSync(cache, 'utf8').includes('LEVELDB_LIBRARY-NOTFOUND');
}

export function buildNative({ sanitize = false } = {}) {
  const dir = sanitize ? 'wasm-core/build/asan' : 'wasm-core/build/native';
  // The sanitizer build needs only what ctest runs (the tests and the fuzz replays).
  const outputs = sanitize ? [`${dir}/fawnlab_tests`] : [`${dir}/fawnlab_tests`, `${dir}/fawnlab_cli`, `${dir}/fawnlab_bench`];
  if (!isStale(outputs, CORE_SOURCES) && !(!sanitize && levelDbAppeared(dir))) {
    if (!sanitize) writeSessionsJson('native');
    return;
  }
  log(`fawnlab: building the native core${sanitize ? ' with ASan+UBSan' : ''} (${dir})…`);
  const t = sanitize
    ? cmakeBuild(dir, ['-DFAWNLAB_SANITIZE=ON'], process.env, 'cmake', ['fawnlab_tests', ...fuzzReplayTargets()])
    : cmakeBuild(dir, [], process.env);
  log(`fawnlab: native build done in ${t}`);
  if (!sanitize) writeSessionsJson('native');
}

export const SESSIONS_JSON = 'wasm-core/dist/sessions.json';

/**
 * Writes wasm-core/dist/sessions.json (describeSessions(): every live session's schema, which
 * the web imports as @wasm/sessions.json) from `source`: 'wasm' (dist/fawnlab_node.cjs) or
 * 'native' (fawnlab_cli sessions); both print the same text. Only when it is missing or older
 * than the binary it comes from.
 */
export function writeSessionsJson(source) {
  const bin = source === 'wasm' ? 'wasm-core/dist/fawnlab_node.cjs' : 'wasm-core/build/native/fawnlab_cli';
  const out = join(ROOT, SESSIONS_JSON);
  if (!existsSync(join(ROOT, bin))) return;
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(join(ROOT, bin)).mtimeMs) return;
  const r = source === 'wasm'
    ? spawnSync(process.execPath, ['-e',
      `require(${JSON.stringify(join(ROOT, bin))})().then((m) => process.stdout.write(m.describeSessions()))`],
    { cwd: ROOT, encoding: 'utf8' })
    : spawnSync(join(ROOT, bin), ['sessions'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout.startsWith('[')) {
    log(`fawnlab: describing the sessions (${bin}) failed: ${r.stderr || r.stdout}`);
    process.exit(1);
  }
  mkdirSync(join(ROOT, 'wasm-core/dist'), { recursive: true });
  writeFileSync(out, r.stdout);
  log(`fawnlab: ${SESSIONS_JSON} written (${source})`);
}

/** libFuzzer builds of wasm-core/fuzz/*_fuzz.cc (clang, ASan + UBSan), for `npm run fuzz`. */
export function buildFuzzers() {
  if (!isStale(['wasm-core/build/fuzz/json_fuzz'], CORE_SOURCES)) return;
  log('fawnlab: building the libFuzzer targets with clang (wasm-core/build/fuzz)…');
  const env = { ...process.env, CC: 'clang-14', CXX: 'clang++-14' };
  const t = cmakeBuild('wasm-core/build/fuzz', ['-DFAWNLAB_LIBFUZZER=ON'], env);
  log(`fawnlab: fuzz build done in ${t}`);
}

export const WASM_OUTPUTS = ['fawnlab_web.mjs', 'fawnlab_web.wasm', 'fawnlab_node.cjs'];

export function buildWasm() {
  const dist = 'wasm-core/dist';
  if (!isStale(WASM_OUTPUTS.map((f) => `${dist}/${f}`), CORE_SOURCES)) {
    writeSessionsJson('wasm');
    return;
  }
  log('fawnlab: building the WebAssembly core with Emscripten (wasm-core/build/wasm)…');
  const t = cmakeBuild('wasm-core/build/wasm', [], emscriptenEnv(), 'emcmake');
  mkdirSync(join(ROOT, dist), { recursive: true });
  for (const f of WASM_OUTPUTS) copyFileSync(join(ROOT, 'wasm-core/build/wasm', f), join(ROOT, dist, f));
  log(`fawnlab: WebAssembly build done in ${t}`);
  writeSessionsJson('wasm');
}

export function buildServer() {
  if (!isStale(['server/dist/main.js', 'server/dist/cli.js'], ['server/src', 'server/tsconfig.json', 'server/tsconfig.build.json'])) return;
  log('fawnlab: compiling the server (tsc)…');
  const t0 = performance.now();
  run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'server/tsconfig.build.json']);
  log(`fawnlab: server compiled in ${since(t0)}`);
}

export function buildWeb() {
  const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/tsconfig.json', 'lessons', 'public',
    'wasm-core/dist'];
  if (isStale(['web/dist/index.html'], sources)) {
    log('fawnlab: building the web lab (vite)…');
    const t0 = performance.now();
    run(join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: join(ROOT, 'web') });
    log(`fawnlab: web build done in ${since(t0)}`);
  }
  // Brotli and gzip copies for the server to send (only files whose copies are missing or stale).
  const t1 = performance.now();
  const written = precompress(join(ROOT, 'web/dist'));
  if (written.some((r) => r.fresh)) log(`fawnlab: web/dist precompressed (.br, .gz) in ${since(t1)}`);
}
