#!/usr/bin/env node
// The project's commands, usable on a fresh clone: each first installs or builds what it
// needs (npm packages, Emscripten and Chromium through apt when root; otherwise it prints the
// exact command), then does its job.
//
//   start [--port N] [--host H]      build what is missing, serve the lab, print its URL
//   test [--only a,b] [--skip a,b]   every suite (steps listed by `test --list`)
//   repro <id> [--param k=v]... [--seed N] [--format json|csv] | --list
//   bench [--only speed,soak,kv,experiments] [--match vector.]   native and WASM speed, FAWN-DS
//                                    soak, FAWN-DS vs LevelDB, and every experiment's time per run
//   build                            build everything without running anything
//   fuzz [--seconds N] [--only name] libFuzzer on every target in wasm-core/fuzz (clang)
//   cluster [--nodes N --replicas R ...]  a real FAWN-KV cluster on this machine (docs/cluster.md)
//   node --join HOST:PORT --data DIR   one back-end joining a cluster from this machine
//   bench-cluster [--nodes 4 ...]      the real cluster measured from a separate load process (npm run bench:cluster)
//   lint                             eslint over web/ and server/
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildFuzzers, buildNative, buildServer, buildWasm, buildWeb } from './build.mjs';
import { runFuzzers } from './fuzz.mjs';
import { runTests } from './test.mjs';
import { ensureChromium, ensureClangFuzzer, ensureEmscripten, ensureLevelDb, ensureNativeToolchain, ensureNodeModules } from './toolchain.mjs';
import { log, ROOT, run } from './util.mjs';

function node(script, args) {
  const child = spawn(process.execPath, [join(ROOT, script), ...args], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/**
 * What each command needs before it runs: tools to install and outputs to build (in order).
 * `node_modules` is always first.
 */
const STEPS = {
  tools: { native: ensureNativeToolchain, emscripten: ensureEmscripten, chromium: ensureChromium, clang: ensureClangFuzzer,
    leveldb: ensureLevelDb },
  builds: { native: buildNative, wasm: buildWasm, server: buildServer, web: buildWeb, fuzz: buildFuzzers },
};

function prepare({ tools = [], builds = [] }) {
  ensureNodeModules();
  for (const t of tools) STEPS.tools[t]();
  for (const b of builds) STEPS.builds[b]();
}

const commands = {
  start(args) {
    prepare({ tools: ['emscripten'], builds: ['wasm', 'server', 'web'] });
    node('server/dist/main.js', args);
  },
  test(args) {
    prepare({ tools: ['native', 'emscripten', 'chromium'] });
    runTests(args).catch((e) => {
      console.error(`fawnlab test: ${e.stack ?? e}`);
      process.exit(1);
    });
  },
  repro(args) {
    prepare({ tools: ['emscripten'], builds: ['wasm', 'server'] });
    node('server/dist/cli.js', ['repro', ...args]);
  },
  bench(args) {
    prepare({ tools: ['native', 'leveldb', 'emscripten'], builds: ['native', 'wasm', 'server'] });
    node('server/dist/cli.js', ['bench', ...args]);
  },
  fuzz(args) {
    prepare({ tools: ['clang'], builds: ['fuzz'] });
    runFuzzers(args);
  },
  build() {
    prepare({ tools: ['native', 'emscripten'], builds: ['native', 'wasm', 'server', 'web'] });
  },
  cluster(args) {
    // The front-end also serves the lab (its Cluster page), so the web app is built too.
    prepare({ tools: ['emscripten'], builds: ['wasm', 'server', 'web'] });
    node('server/dist/cli.js', ['cluster', ...args]);
  },
  'bench-cluster'(args) {
    prepare({ tools: ['emscripten'], builds: ['wasm', 'server'] });
    node('server/dist/cli.js', ['bench-cluster', ...args]);
  },
  node(args) {
    prepare({ tools: ['emscripten'], builds: ['wasm', 'server'] });
    node('server/dist/cli.js', ['node', ...args]);
  },
  lint() {
    prepare({});
    for (const ws of ['web', 'server', 'e2e']) {
      run(join(ROOT, 'node_modules/.bin/eslint'), ['--max-warnings=0', '.'], { cwd: join(ROOT, ws) });
    }
  },
};
commands.serve = commands.start;

const [cmd, ...rest] = process.argv.slice(2);
if (!cmd || !commands[cmd]) {
  log(`usage: fawnlab <${Object.keys(commands).join('|')}> [args]`);
  process.exit(2);
}
commands[cmd](rest);
