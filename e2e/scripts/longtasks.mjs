// The longest main-thread task on the live FAWN-KV and FAWN-DS pages while they play at their
// fastest speed (not part of npm test: a measurement to compare builds).
//
//   node e2e/scripts/longtasks.mjs http://127.0.0.1:4313 [seconds=10]
//
// For each page (the lab as it opens, and with a heavy lesson scenario) it opens the page in
// Debian's Chromium at 1280×720, picks the last (fastest) entry of the live view's speed list
// (and, in a second run, keeps the default), presses Play, and reads the PerformanceObserver 'longtask' entries (buffered) of the
// playing window. Prints one line per page and a JSON summary. Works against any build of the
// lab (the old main-thread sessions or the session worker): it only uses the page's controls.
/* global window */
import { chromium } from '@playwright/test';

const base = (process.argv[2] ?? '').replace(/\/$/, '');
const seconds = Number(process.argv[3] ?? 10);
if (!/^https?:\/\//.test(base) || !(seconds > 0)) {
  console.error('usage: node e2e/scripts/longtasks.mjs <base URL, e.g. http://127.0.0.1:4313> [seconds=10]');
  process.exit(2);
}

// A page may carry operations, each [input selector, value, button]: typed and clicked 2 s
// into the playing window (a bulk fill runs in the core until it completes: on the old
// main-thread sessions it froze the page for its whole length).
const PAGES = [
  ['fawnkv', '/labs/fawnkv'],
  ['fawnkv', '/labs/fawnkv?scenario=cluster-power'],
  ['fawnkv', '/labs/fawnkv?live.nodes=24&live.vids=4&live.load_rate_per_s=20000', [['#fawnkv-fill', '20000', 'Fill']]],
  ['fawnds', '/labs/fawnds'],
  ['fawnds', '/labs/fawnds?scenario=million-records'],
];
// Each page at its fastest speed and at its default (auto). Builds before the session worker
// kept running the auto clock after a fixed speed was chosen (the virtual time reached shows
// which speed really ran); the default speed compares like with like.
const SPEEDS = ['fastest', 'default'];

const browser = await chromium.launch({
  executablePath: process.env.FAWNLAB_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});
const results = [];
try {
  for (const [prefix, path, ops = []] of PAGES) for (const which of SPEEDS) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(() => {
      window.__longtasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(base + path);
    const speed = page.locator(`#${prefix}-speed`);
    await speed.waitFor({ timeout: 60_000 });
    // Let the session open and a scenario's script finish setting up.
    await page.getByText(/Setting up the scenario/).waitFor({ state: 'detached', timeout: 120_000 }).catch(() => {});
    await page.waitForTimeout(1000);
    const last = await speed.locator('option').count();
    if (which === 'fastest') await speed.selectOption({ index: last - 1 });
    const label = await speed.locator('option:checked').textContent();
    const play = page.getByRole('group', { name: /controls/ }).getByRole('button', { name: /^(Play|Pause)$/ });
    if ((await play.getAttribute('aria-pressed')) !== 'true') await play.click();
    const t0 = await page.evaluate(() => performance.now());
    let waited = 0;
    for (const [input, value, button] of ops) {
      if (waited === 0) await page.waitForTimeout((waited = 2000));
      await page.locator(input).fill(value);
      await page.getByRole('button', { name: button, exact: true }).click();
    }
    await page.waitForTimeout(Math.max(0, seconds * 1000 - waited));
    const t1 = await page.evaluate(() => performance.now());
    const time = await page.getByTestId(`${prefix}-time`).textContent();
    const tasks = await page.evaluate(([a, b]) => window.__longtasks.filter((t) => t.start >= a && t.start <= b), [t0, t1]);
    const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
    const total = tasks.reduce((s, t) => s + t.duration, 0);
    const r = { page: path, speed: `${which}: ${label?.trim()}`, seconds, longestMs: Math.round(longest), count: tasks.length, totalMs: Math.round(total), virtualTime: time?.trim() };
    results.push(r);
    console.log(`${path}${ops.length ? ` + ${ops.map((o) => `${o[2]} ${o[1]}`).join(', ')}` : ''}: longest task ${r.longestMs} ms, ${r.count} long tasks (${r.totalMs} ms in all) in ${seconds} s at ${r.speed}; ${r.virtualTime}`);
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(results, null, 1));
