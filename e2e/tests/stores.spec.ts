// User flows through the Stores lab: open it from home, run a workload and see every chosen
// store's column of counters fill and its structure change, look a key up in every store, add
// stores from the keyboard and read the rates chart with the arrow keys, run stores.memory and
// see the papers' bytes per key beside the lab's (and the same bytes as the native build), meet
// a bad parameter's named error, and fit a phone.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { downloadText, nativeRun, shot } from './helpers';

/** A text number as a value: "151k" → 151000, "2.94" → 2.94, "1,234" → 1234; "—" → NaN. */
function valueOf(text: string | null): number {
  const m = /-?[\d,]*\.?\d+[kMB]?/.exec(text ?? '');
  if (!m) return NaN;
  const suffix = { k: 1e3, M: 1e6, B: 1e9 }[m[0].slice(-1)] ?? 1;
  return Number(m[0].replace(/,/g, '').replace(/[kMB]$/, '')) * suffix;
}

const cell = (live: Locator, store: string, id: string) => live.locator(`td[data-store="${store}"][data-counter="${id}"]`);
const num = async (loc: Locator) => valueOf(await loc.textContent());
const DEFAULT_STORES = ['cona', 'silt', 'lsm'];

async function openLive(page: Page): Promise<Locator> {
  await page.goto('/labs/stores');
  const live = page.locator('section.live-stores');
  await expect(cell(live, 'cona', 'ops')).toBeVisible({ timeout: 60_000 });
  return live;
}

/** The stores the session runs (its cards), in order. */
async function cardKinds(live: Locator): Promise<string[]> {
  return live.locator('article.stores-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-store') ?? ''));
}

test('home → Stores: a workload fills every store\'s column and changes its structure; a get traced per store', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /Stores/ }).first().click();
  await expect(page).toHaveURL(/\/labs\/stores$/);
  const live = page.locator('section.live-stores');
  await expect(cell(live, 'cona', 'ops')).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => cardKinds(live)).toEqual(DEFAULT_STORES);

  const before: Record<string, string> = {};
  for (const k of DEFAULT_STORES) before[k] = (await live.getByTestId(`stores-summary-${k}`).textContent()) ?? '';

  // A key of our own, then YCSB A (live: the running stores switch to it) at a fast clock.
  await live.getByRole('textbox', { name: 'key' }).fill('alice');
  await live.getByRole('textbox', { name: 'value (put)' }).fill('hello');
  await live.getByRole('button', { name: 'Put' }).click();
  await expect(live.getByTestId('stores-result')).toContainText('put “alice”');
  await live.getByLabel(/workload/).selectOption('a');
  await live.getByLabel('speed').selectOption({ index: 3 });
  await live.getByRole('button', { name: 'Play' }).click();
  for (const k of DEFAULT_STORES) {
    await expect.poll(() => num(cell(live, k, 'ops')), { timeout: 90_000 }).toBeGreaterThan(500);
    await expect.poll(() => num(cell(live, k, 'read_iops')), { timeout: 90_000 }).toBeGreaterThan(0);
    await expect.poll(() => num(cell(live, k, 'write_iops')), { timeout: 90_000 }).toBeGreaterThan(0);
    await expect.poll(() => live.getByTestId(`stores-summary-${k}`).textContent(), { timeout: 90_000 }).not.toBe(before[k]);
  }
  await live.getByRole('button', { name: 'Pause' }).click();
  // Every counter of every store is filled (a number, or "—" only where nothing was measured).
  for (const k of DEFAULT_STORES) {
    for (const id of ['read_p50_us', 'read_p99_us', 'write_p99_us', 'dram_bytes_per_key', 'store_wa', 'uj_per_op']) {
      expect(await num(cell(live, k, id)), `${k} ${id}`).toBeGreaterThan(0);
    }
    // The FTL's amplification is 0 until the page cache writes back to the flash.
    expect(await num(cell(live, k, 'ftl_wa')), `${k} ftl_wa`).toBeGreaterThanOrEqual(0);
    expect(await num(cell(live, k, 'mismatches')), `${k} read a wrong value`).toBe(0);
  }
  await expect(live.getByTestId('stores-events').locator('li').first()).toBeVisible();

  // The get: one row per store, found, with its latency and device reads.
  await live.getByRole('button', { name: 'Get' }).click();
  const get = live.getByTestId('stores-get');
  await expect(get).toContainText('get “alice”: found in every store');
  for (const k of DEFAULT_STORES) {
    const row = get.locator(`tr[data-store="${k}"]`);
    await expect(row.locator('td').first()).toHaveText('found');
    expect(await num(row.locator('td').nth(1))).toBeGreaterThan(0);
  }
  await live.getByRole('textbox', { name: 'key' }).fill('nobody-has-this-key');
  await live.getByRole('button', { name: 'Get' }).click();
  await expect(get).toContainText('not found in any store');
  await live.getByTestId('stores-cards').scrollIntoViewIfNeeded();
  await shot(page, 'stores-live');

  const axe = await new AxeBuilder({ page }).include('section.live-stores').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('from the keyboard: add FAWN-DS and the B+tree, play with Space, read the chart with the arrow keys', async ({ page }) => {
  const live = await openLive(page);
  for (const name of ['FAWN-DS', 'B+tree']) {
    const box = live.getByRole('checkbox', { name, exact: true });
    await box.focus();
    await page.keyboard.press(' ');
    await expect(box).toBeChecked();
  }
  await expect.poll(() => cardKinds(live), { timeout: 60_000 }).toEqual(['cona', 'silt', 'lsm', 'fawnds', 'btree']);
  await expect(live.getByTestId('stores-structure-btree')).toHaveAttribute('aria-label', /B\+tree's structure\. Height/);
  await expect(live.getByTestId('stores-structure-fawnds')).toHaveAttribute('aria-label', /FAWN-DS's structure\. Log/);

  // Space plays (the view's shortcut, from any of its parts that is not a control); the arrow keys read the chart.
  const chart = live.getByTestId('stores-iops');
  await chart.focus();
  await page.keyboard.press(' ');
  await expect(live.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(() => num(cell(live, 'btree', 'ops')), { timeout: 90_000 }).toBeGreaterThan(200);
  await page.keyboard.press(' ');
  await expect(live.getByRole('button', { name: 'Play' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  const readout = live.getByTestId('stores-iops-readout');
  await expect(readout).toContainText(/^At [\d.]+ m?s \(IOPS\): CONA/);
  await expect(readout).toContainText('B+tree');
  await page.keyboard.press('Home');
  await page.keyboard.press('Escape');
  await expect(readout).toContainText('Point at the chart');
});

test('run stores.memory: the lab’s DRAM bytes per key beside the papers’', async ({ page }) => {
  await page.goto('/labs/stores');
  await page.getByLabel('Experiment', { exact: true }).selectOption('stores.memory');
  await expect(page).toHaveURL(/exp=stores\.memory/);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // [metric, the paper's value]: the paper's value stands beside the lab's, which is whatever the stores measured.
  const rows: Array<[string, number]> = [['fawnds_dram_bpk', 6], ['silt_dram_bpk', 0.7], ['cona_dram_bpk', 1.7]];
  for (const [metric, paper] of rows) {
    const row = page.locator(`tr[data-metric="${metric}"]`);
    await expect(row).toBeVisible({ timeout: 120_000 });
    const lab = Number(await row.locator('td.num').first().getAttribute('data-value'));
    expect(lab, `${metric} = ${lab}`).toBeGreaterThan(0);
    expect(valueOf(await row.locator('td.num').nth(1).textContent()), `${metric}'s anchor`).toBeCloseTo(paper, 1);
  }
  await expect(page.locator('tr[data-metric="lsm_dram_bpk"]')).toBeVisible();
  await expect(page.locator('tr[data-metric="btree_dram_bpk"]')).toBeVisible();
  await page.locator('tr[data-metric="fawnds_dram_bpk"]').scrollIntoViewIfNeeded();
  await shot(page, 'stores-memory');

  const dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = await downloadText(await dl);
  const native = nativeRun('stores.memory', {}, '1');
  if (native !== null) expect(json).toBe(native);
});

test('a bad parameter gets a named error: in a live link and in the live view', async ({ page }) => {
  await page.goto('/labs/stores?live.bloom_bits=50');
  await expect(page.locator('.lab-problems')).toContainText('live.bloom_bits=50 in the link must be an integer in [0, 20]');
  const live = await openLive(page);
  for (const name of ['CONA', 'SILT', 'LSM (LevelDB’s image)']) await live.getByRole('checkbox', { name, exact: true }).uncheck();
  await expect(live.getByTestId('stores-config-error')).toContainText(/at least one/i);
  await live.getByRole('checkbox', { name: 'CONA', exact: true }).check();
  await expect(live.getByTestId('stores-config-error')).toHaveCount(0);
  await expect.poll(() => cardKinds(live)).toEqual(['cona']);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the Stores lab fits a phone: the stores stack, the table scrolls inside itself', async ({ page }) => {
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    const live = await openLive(page);
    await live.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => num(cell(live, 'lsm', 'ops')), { timeout: 90_000 }).toBeGreaterThan(100);
    await live.getByRole('button', { name: 'Pause' }).click();
    expect(await width()).toBeLessThanOrEqual(390);
    const boxes = await live.locator('article.stores-card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, right: r.right })));
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]!.x).toBeCloseTo(boxes[0]!.x, 0);
      expect(boxes[i]!.y).toBeGreaterThan(boxes[i - 1]!.y);
    }
    for (const b of boxes) expect(b.right).toBeLessThanOrEqual(390);
    await live.getByTestId('stores-cards').scrollIntoViewIfNeeded();
    await shot(page, 'phone-stores');
  });
});

test('a lesson scenario loads into the live stores: alice looked up in all five', async ({ page }) => {
  await page.goto('/labs/stores');
  await expect(page.getByRole('alert').filter({ hasText: 'This lesson has problems' })).toHaveCount(0);
  await page.locator('aside[data-scenario="one-lookup"]').getByRole('button', { name: /live stores/ }).click();
  const live = page.locator('section.live-stores');
  await expect(live.getByTestId('stores-setup-summary')).toContainText('FAWN-DS and the B+tree');
  await expect.poll(() => cardKinds(live), { timeout: 60_000 }).toEqual(['cona', 'silt', 'lsm', 'fawnds', 'btree']);
  const get = live.getByTestId('stores-get');
  await expect(get).toContainText('get “alice”: found in every store', { timeout: 60_000 });
  await expect(get.locator('tbody tr')).toHaveCount(5);
  await live.getByTestId('stores-cards').scrollIntoViewIfNeeded();
  await shot(page, 'stores-scenario-lookup');
});
