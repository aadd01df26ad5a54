// `npm test`: every suite, in dependency order, each step timed. Fails on the first red step
// and says which. `--only a,b` / `--skip a,b` select steps; `--list` lists them.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { buildNative, buildServer, buildWasm, buildWeb } from './build.mjs';
import { checkGoldens } from './goldens.mjs';
import { log, ROOT, run, since } from './util.mjs';

const bin = (name) => join(ROOT, 'node_modules/.bin', name);
// ctest runs the GoogleTest shards (wasm-core/CMakeLists.txt) and the fuzz replays side by side.
const CTEST_JOBS = String(Math.max(2, availableParallelism()));

const STEPS = [
  ['native', 'C++ core: GoogleTest and fuzz-corpus replays (native build)', () => {
    buildNative();
    run('ctest', ['--test-dir', 'wasm-core/build/native', '--output-on-failure', '-j', CTEST_JOBS]);
  }],
  ['goldens', 'Every experiment at seed 1 gives its recorded JSON, byte for byte (wasm-core/golden)', async () => {
    buildNative();
    const { problems, count } = await checkGoldens();
    for (const p of problems) log(`goldens: ${p}`);
    if (problems.length) process.exit(1);
    log(`goldens: all ${count} experiments match`);
  }],
  ['asan', 'C++ core under AddressSanitizer + UBSan', () => {
    buildNative({ sanitize: true });
    // The statistical queueing anchors (millions of simulated customers, checked against
    // theory), the anchor-notes sweep (every experiment run once more to read its anchors'
    // metadata) and the paper-scale join reproduction prove arithmetic and bookkeeping, not
    // memory safety; the native step runs them (about 40 s of the sanitizer step saved). So do
    // the CONA experiments' anchor tests and the store's million-op run against a map (about
    // 90 s under the sanitizers); the store's own, crash, machine, runner and session tests
    // stay here, over the same code.
    // SRCMap's full-rate days (7.45 million requests each, printed beside the thesis) likewise;
    // its consolidation, replica and disk tests stay.
    const srcmap = ['SrcmapDay.ThesisDayL0L3', 'SrcmapDay.PoliciesAtL0', 'SrcmapDay.WindowRunTimes',
      'SrcmapWorkload.GeneratedDayMatchesTable32', 'SrcmapWorkload.TouchedOnDayMatchesGeneratedRequests',
      'SrcmapWorkload.GenerationSpeed', 'SrcmapDayExtras.CapacityScaleKeepsTheDecisions',
      'SrcmapTimelineTest.*', 'SrcmapResponseTest.*', 'SrcmapDayTest.*', 'SrcmapPerDiskTest.*',
      'SrcmapSession.TheDaysEndIsRunGeneratedDaysReport', 'SrcmapSession.RunTimes',
      'SrcmapSim*'];
    // Other labs' experiment-anchor tests (paper figures from whole runs): the same reasoning,
    // about 75 s of the sanitizer step; their models' own unit and crash tests stay here.
    const anchors = ['VectorNetExperiments.*', 'VectorScaleExperimentTest.*', 'FawndsVsBtreeTest.*',
      'FawndsTable2Test.*', 'FawndsSemiRandomTest.*', 'DevicesExperimentsTest.*', 'ConaStore.BytesPerKeyByTrieMix',
      'SrcmapWorkload.NextDayHitRatioSaturates'];
    // The Stores lab's experiment anchors run every store under YCSB: arithmetic, as above.
    const stores = ['StoresYcsbTest.*', 'StoresMemoryTest.*', 'StoresAmplificationTest.*', 'StoresEnergyTest.*',
      'StoresExperimentsTest.*'];
    const cona = ['ConaTrieSpeedTest.*', 'ConaBufferSizeTest.*', 'ConaMergesTest.*', 'ConaStoreExperimentsTest.*',
      'ConaTrieMemoryTest.*', 'ConaTimeseriesTest.*', 'ConaYcsbTest.*', 'ConaStoreRandom.MillionOpsAgainstAMap'];
    run('ctest', ['--test-dir', 'wasm-core/build/asan', '--output-on-failure', '-j', CTEST_JOBS], {
      env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1', UBSAN_OPTIONS: 'print_stacktrace=1',
        GTEST_FILTER: `-Seeds/QueuesAnchors.*:AnchorNotesTest.*:FawnkvJoinTest.OnlyTheThreeDonorsSlowDown:${cona.join(':')}:${srcmap.join(':')}:${stores.join(':')}:${anchors.join(':')}` },
    });
  }],
  ['wasm', 'WebAssembly build (browser + Node)', () => buildWasm()],
  ['types', 'TypeScript: type-check web, server and e2e', () => {
    run(bin('tsc'), ['-p', 'web/tsconfig.json', '--noEmit']);
    run(bin('tsc'), ['-p', 'server/tsconfig.json', '--noEmit']);
    run(bin('tsc'), ['-p', 'e2e/tsconfig.json', '--noEmit']);
  }],
  ['lint', 'ESLint, including the layer rules of web/src', () => {
    for (const ws of ['web', 'server', 'e2e']) run(bin('eslint'), ['--max-warnings=0', '.'], { cwd: join(ROOT, ws) });
  }],
  ['vitest', 'Vitest: web model, viz and lessons; server CLI, HTTP and determinism', () => {
    buildNative();
    buildWasm();
    buildServer();
    run(bin('vitest'), ['run', '--root', 'web']);
    run(bin('vitest'), ['run', '--root', 'server']);
  }],
  ['e2e', 'Playwright in Debian\'s Chromium: user flows through the built lab', () => {
    buildNative();
    buildWasm();
    buildServer();
    buildWeb();
    run(bin('playwright'), ['test', '--config', 'e2e/playwright.config.ts']);
  }],
];

export async function runTests(args) {
  const opt = (name) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? args[i + 1].split(',') : null;
  };
  if (args.includes('--list')) {
    for (const [name, what] of STEPS) log(`${name.padEnd(8)} ${what}`);
    return;
  }
  const only = opt('--only');
  const skip = opt('--skip') ?? [];
  for (const n of [...(only ?? []), ...skip]) {
    if (!STEPS.some(([name]) => name === n)) {
      log(`fawnlab test: unknown step '${n}'; steps: ${STEPS.map(([s]) => s).join(', ')}`);
      process.exit(2);
    }
  }
  const t0 = performance.now();
  for (const [name, what, fn] of STEPS) {
    if ((only && !only.includes(name)) || skip.includes(name)) continue;
    const t = performance.now();
    log(`\n── ${name}: ${what}`);
    await fn();
    log(`── ${name}: passed in ${since(t)}`);
  }
  log(`\nfawnlab test: all steps passed in ${since(t0)}`);
}
