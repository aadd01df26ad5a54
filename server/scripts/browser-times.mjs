#!/usr/bin/env node
// Real browser time per experiment: serves the built lab (`node server/dist/main.js --port N`),
// opens each experiment whose id starts with --match (default `vector.`) at its defaults and
// seed 1 in a fresh Chromium page (/labs/<lab>?exp=<id>), clicks Run and measures, in the page,
// the wall time until the result's section (`section.result`, "Result of <id>") is in the DOM
// and two animation frames have passed (it is painted). "first" is the page's first run: it
// includes starting the experiment worker and instantiating the core in it; "next" is a second
// Run on the same page (the worker warm): the experiment's own time in the browser. Prints a
// Markdown table; the flag marks a next run over the lab contract's 2 s budget (OVER), or only
// the first run over it (first run). A figure, not a gate: not part of `npm test`. Needs `npm run build` first.
//
//   node server/scripts/browser-times.mjs [--port 8097] [--match vector.] [--runs 1]
//
// --port defaults to $FAWNLAB_E2E_PORT or 8097 (the e2e server's port); --runs N repeats each
// measurement on N fresh pages and keeps the fastest of each column.
// Chromium: $FAWNLAB_CHROMIUM or /usr/bin/chromium (as e2e/playwright.config.ts).
/* global document, MutationObserver, requestAnimationFrame -- clickRunAndWait runs in the page */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { log, ROOT } from './util.mjs';

const BUDGET_S = 2;
const RUN_TIMEOUT_MS = 120_000;

const { values: opts } = parseArgs({
  options: { port: { type: 'string', default: process.env.FAWNLAB_E2E_PORT ?? '8097' }, match: { type: 'string', default: 'vector.' },
    runs: { type: 'string', default: '1' } },
});
const port = Number(opts.port);
const runs = Number(opts.runs);
if (!Number.isInteger(port) || port < 1 || port > 65535 || !Number.isInteger(runs) || runs < 1 || runs > 20) {
  log('error: --port must be an integer port and --runs an integer in [1, 20]');
  process.exit(2);
}
for (const f of ['server/dist/main.js', 'server/dist/table.js', 'web/dist/index.html', 'wasm-core/dist/fawnlab_node.cjs']) {
  if (!existsSync(join(ROOT, f))) {
    log(`error: ${f} is missing; run 'npm run build'`);
    process.exit(1);
  }
}
// The server's Markdown table (server/src/table.ts), compiled: the bench tables' format.
const { table } = await import('../dist/table.js');

/** The experiments to time (id and lab), from the same core build the server's CLI uses. */
async function experiments(prefix) {
  const factory = createRequire(import.meta.url)(join(ROOT, 'wasm-core/dist/fawnlab_node.cjs'));
  const core = await factory();
  return JSON.parse(core.listExperiments()).filter((e) => e.id.startsWith(prefix)).map(({ id, lab }) => ({ id, lab }));
}

async function startServer() {
  const child = spawn(process.execPath, [join(ROOT, 'server/dist/main.js'), '--port', String(port)],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}); is port ${port} taken?`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`the server did not answer /healthz on port ${port} within 30 s`);
}

/**
 * In the page: click Run, resolve with the milliseconds until a `section.result` for `id` is
 * added to the DOM and painted; reject with the panel's error if the run fails.
 */
function clickRunAndWait({ id, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const sel = `section.result[aria-label="Result of ${id}"]`;
    const panel = document.querySelector('section.experiment');
    const button = [...(panel?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Run');
    if (!button || button.disabled) return reject(new Error('no enabled Run button in the experiment panel'));
    const timer = setTimeout(() => done(new Error(`no result after ${timeoutMs / 1000} s`)), timeoutMs);
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n.nodeType !== 1) continue;
          if (n.matches(sel) || n.querySelector(sel)) return done(null);
          const err = n.matches('p.error') ? n : n.querySelector('p.error');
          if (err?.textContent?.startsWith('The run failed')) return done(new Error(err.textContent));
        }
      }
    });
    let t0 = 0;
    function done(error) {
      observer.disconnect();
      clearTimeout(timer);
      if (error) return reject(error);
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
    }
    observer.observe(panel, { childList: true, subtree: true });
    t0 = performance.now();
    button.click();
  });
}

/** One fresh page: [first run s, next run s]. */
async function measure(browser, { id, lab }) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  try {
    await page.goto(`http://127.0.0.1:${port}/labs/${lab}?exp=${encodeURIComponent(id)}`);
    const run = page.locator('section.experiment').getByRole('button', { name: 'Run', exact: true });
    await run.waitFor({ timeout: 60_000 });
    if ((await page.locator('select#experiment').inputValue()) !== id) throw new Error(`the page did not select ${id}`);
    // Run stays disabled while the page's core loads (a lab with a live view loads its session too).
    for (let waited = 0; (await run.isDisabled()) && waited < 30_000; waited += 100) await page.waitForTimeout(100);
    if (await run.isDisabled()) throw new Error(`Run is disabled: ${await page.locator('section.experiment p.error').textContent()}`);
    const first = await page.evaluate(clickRunAndWait, { id, timeoutMs: RUN_TIMEOUT_MS });
    await run.waitFor({ timeout: 10_000 });
    const next = await page.evaluate(clickRunAndWait, { id, timeoutMs: RUN_TIMEOUT_MS });
    return [first / 1000, next / 1000];
  } finally {
    await page.close();
  }
}

function browserTable(rows) {
  const head = ['experiment', 'lab', 'first run s', 'next run s', `> ${BUDGET_S} s`];
  return table([head, ...rows.map((r) => [r.id, r.lab, r.first.toFixed(2), r.next.toFixed(2), r.next > BUDGET_S ? 'OVER' : r.first > BUDGET_S ? 'first run' : ''])]);
}

const list = await experiments(opts.match);
if (!list.length) {
  log(`error: no experiment id starts with '${opts.match}'`);
  process.exit(2);
}
const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.FAWNLAB_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
});
const version = browser.version();
const rows = [];
let failed = 0;
try {
  for (const e of list) {
    const row = { ...e, first: Infinity, next: Infinity };
    try {
      for (let i = 0; i < runs; i++) {
        const [first, next] = await measure(browser, e);
        row.first = Math.min(row.first, first);
        row.next = Math.min(row.next, next);
      }
      log(`browser-times: ${e.id}: first ${row.first.toFixed(2)} s, next ${row.next.toFixed(2)} s`);
      rows.push(row);
    } catch (err) {
      failed++;
      log(`browser-times: ${e.id} FAILED: ${err.message}`);
    }
  }
} finally {
  await browser.close();
  server.kill();
}
process.stdout.write(browserTable(rows));
const over = (f) => rows.filter(f).map((r) => r.id).join(', ') || 'none';
process.stdout.write(`Chromium ${version}, ${runs > 1 ? `best of ${runs} pages` : 'one page'} per experiment, ` +
  `defaults, seed 1; over ${BUDGET_S} s: next run ${over((r) => r.next > BUDGET_S)}; ` +
  `first run ${over((r) => r.first > BUDGET_S)}\n`);
process.exitCode = failed ? 1 : 0;
