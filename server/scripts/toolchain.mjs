// Toolchain checks for a fresh machine: what the project's commands need and cannot install
// through npm. Plain Node (no dependencies), because it runs before `npm install`.
//
// Each ensure* function returns when the tool is present; if it is missing it installs it
// with apt-get when running as root, and otherwise prints the exact command to run and exits
// with status 1. Nothing here downloads anything outside the package registries.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { log, ROOT } from './util.mjs';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let aptUpdated = false;

function onPath(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

function aptInstall(packages, why, { optional = false } = {}) {
  const cmd = `apt-get install -y ${packages.join(' ')}`;
  if (!isRoot) {
    log(`fawnlab: ${why} is missing. Install it with:\n\n  sudo apt-get update && sudo ${cmd}\n\nthen run the command again.`);
    if (optional) return;
    process.exit(1);
  }
  log(`fawnlab: installing ${why} (${packages.join(', ')}) with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    spawnSync('apt-get', ['update'], { stdio: ['ignore', 2, 2], env });
    aptUpdated = true;
  }
  const r = spawnSync('apt-get', ['install', '-y', ...packages], { stdio: ['ignore', 2, 2], env });
  if (r.status !== 0) {
    log(`fawnlab: '${cmd}' failed (exit ${r.status}).`);
    if (optional) return;
    process.exit(1);
  }
}

/** npm packages of every workspace; installs them when node_modules is missing or stale. */
export function ensureNodeModules() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  const manifests = ['package.json', 'web/package.json', 'server/package.json', 'e2e/package.json']
    .map((p) => join(ROOT, p))
    .filter(existsSync);
  const newest = Math.max(...manifests.map((p) => statSync(p).mtimeMs), existsSync(lock) ? statSync(lock).mtimeMs : 0);
  if (existsSync(marker) && statSync(marker).mtimeMs >= newest) return;
  const useCi = existsSync(lock) && !existsSync(join(ROOT, 'node_modules'));
  const args = useCi ? ['ci', '--loglevel=warn'] : ['install', '--loglevel=warn'];
  log(`fawnlab: npm ${args[0]} (npm packages for web, server and e2e)…`);
  const r = spawnSync('npm', args, {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (r.status !== 0) {
    log(`fawnlab: npm ${args[0]} failed (exit ${r.status}).`);
    process.exit(1);
  }
}

/** CMake and Ninja: every build of the core (native and WebAssembly) goes through them. */
export function ensureBuildTools() {
  const missing = [];
  if (!onPath('cmake')) missing.push('cmake');
  if (!onPath('ninja')) missing.push('ninja-build');
  if (missing.length) aptInstall(missing, 'the build tools');
  // ccache is optional: with it, a second clone on the same machine reuses the first one's
  // objects (build.mjs sets CCACHE_BASEDIR), which cuts a clean clone's test run by minutes.
  if (!onPath('ccache')) aptInstall(['ccache'], 'ccache (compiler cache, optional)', { optional: true });
}

/** The native C++ toolchain for tests and benchmarks: g++ and GoogleTest. */
export function ensureNativeToolchain() {
  ensureBuildTools();
  const missing = [];
  if (!onPath('g++')) missing.push('g++');
  if (!existsSync('/usr/include/gtest/gtest.h') && !existsSync('/usr/local/include/gtest/gtest.h')) {
    missing.push('libgtest-dev');
  }
  if (missing.length) aptInstall(missing, 'the native C++ toolchain');
}

/** clang 14 with the libFuzzer runtime (for `npm run fuzz`; Emscripten depends on the same clang). */
export function ensureClangFuzzer() {
  ensureBuildTools();
  const rt = '/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a';
  if (!onPath('clang++-14') || !existsSync(rt)) aptInstall(['clang-14', 'libclang-rt-14-dev'], 'clang with libFuzzer');
}

/** Emscripten (Debian's 3.1.6; emsdk cannot be used here: it downloads toolchains). */
export function ensureEmscripten() {
  ensureBuildTools();
  if (!onPath('emcc')) aptInstall(['emscripten'], 'Emscripten (C++ to WebAssembly)');
}

/**
 * LevelDB (Debian's libleveldb-dev) for the FAWN-DS vs LevelDB benchmark. Optional: without
 * it (not root) the command to install it is printed and the bench says it is not installed.
 */
export function ensureLevelDb() {
  if (!existsSync('/usr/include/leveldb/db.h')) {
    aptInstall(['libleveldb-dev'], 'LevelDB (for the FAWN-DS vs LevelDB benchmark)', { optional: true });
  }
}

/** Debian's Chromium for Playwright (Playwright's own browser download cannot work here). */
export function chromiumPath() {
  return process.env.FAWNLAB_CHROMIUM || '/usr/bin/chromium';
}

export function ensureChromium() {
  if (!existsSync(chromiumPath())) aptInstall(['chromium'], 'Chromium (for the browser tests)');
}

/** Environment for emcc/emcmake: Debian's emcc needs Debian's node modules (acorn). */
export function emscriptenEnv() {
  const nodePath = ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':');
  return { ...process.env, NODE_PATH: nodePath };
}

export function toolVersion(cmd, args = ['--version']) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', env: emscriptenEnv() }).split('\n')[0];
  } catch {
    return 'not found';
  }
}
