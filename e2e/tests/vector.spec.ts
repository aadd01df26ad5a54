// User flows through the Vector I/O lab: open it from home, run the combined G = R sweep and
// see the lab's curve beside the paper's points (and the same bytes as the native build),
// widen G and R in the live networked back-end and see throughput climb, meet a bad width's
// named error, watch the block layer's timeline and its interrupts, load a lesson scenario into
// the block view, and fit a phone.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { downloadText, nativeRun, shot } from './helpers';

/** A text number as a value: "112k lookups/s" → 112000, "1.6M" → 1600000, "3.52" → 3.52. */
function valueOf(text: string | null): number {
  const m = /-?[\d,]*\.?\d+[kMB]?/.exec(text ?? '');
  if (!m) return NaN;
  const suffix = { k: 1e3, M: 1e6, B: 1e9 }[m[0].slice(-1)] ?? 1;
  return Number(m[0].replace(/,/g, '').replace(/[kMB]$/, '')) * suffix;
}

async function num(loc: Locator): Promise<number> {
  return valueOf(await loc.textContent());
}

async function blockTab(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: /Block layer/ }).click();
  const block = page.locator('#tabpanel-block');
  await expect(block).toBeVisible();
  return block;
}

test('home → Vector I/O → run vector.combined: the lab’s curve beside the paper’s points, as the native build computes it', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /Vector I\/O/ }).click();
  await expect(page).toHaveURL(/\/labs\/vector$/);
  await page.getByLabel('Experiment', { exact: true }).selectOption('vector.combined');
  await expect(page).toHaveURL(/exp=vector\.combined/);
  await page.getByRole('button', { name: 'Run' }).click();
  for (const metric of ['g32_peak', 'headline_ratio']) {
    await expect(page.locator(`tr[data-metric="${metric}"] td.pass`)).toContainText('yes', { timeout: 120_000 });
  }
  const peak = Number(await page.locator('tr[data-metric="g32_peak"] td.num').first().getAttribute('data-value'));
  expect(Math.abs(peak - 1.6e6) / 1.6e6, `g32_peak = ${peak}, paper 1.6M`).toBeLessThanOrEqual(0.15);
  // A chart carries the lab's measured curve and the paper's points beside it.
  const chart = page.locator('figure.chart', { has: page.locator('g[data-kind="paper"] path') }).first();
  await expect(chart).toBeVisible();
  await expect(chart.locator('g[data-kind="measured"]').first()).toBeAttached();
  await chart.scrollIntoViewIfNeeded();
  await shot(page, 'vector-combined');

  // The browser computed the same bytes as the native build.
  const dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = await downloadText(await dl);
  const native = nativeRun('vector.combined', {}, '1');
  if (native !== null) expect(json).toBe(native);
});

test('widening G and R in the live back-end raises its throughput', async ({ page }) => {
  await page.goto('/labs/vector');
  const net = page.locator('#tabpanel-net');
  await expect(page.getByRole('tab', { name: /Networked back-end/ })).toHaveAttribute('aria-selected', 'true');
  const thr = net.getByTestId('vector-net-throughput');
  // Offer more than one lookup per RPC and per command can serve.
  await net.getByRole('spinbutton', { name: /offered load/ }).fill('800');
  await net.getByLabel('speed').selectOption({ label: '20 ms per second' });
  await net.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => num(thr), { timeout: 60_000 }).toBeGreaterThan(50_000);
  await expect.poll(() => num(thr), { timeout: 60_000 }).toBeLessThan(200_000);
  const narrow = await num(thr);
  await net.getByRole('spinbutton', { name: /multiget G/ }).fill('16');
  await net.getByRole('spinbutton', { name: /multiread R/ }).fill('16');
  await expect.poll(() => num(thr), { timeout: 60_000 }).toBeGreaterThan(2 * narrow);
  await expect(page).toHaveURL(/live\.multiget=16/);
  await shot(page, 'vector-net-wide');
  await net.getByRole('button', { name: 'Pause' }).click();
});

test('a bad width gets a named error: in the experiment panel and in a live link', async ({ page }) => {
  await page.goto('/labs/vector?exp=vector.combined&max_width=999');
  const alert = page.getByRole('alert').filter({ hasText: 'max_width' });
  await expect(alert).toContainText("parameter 'max_width' = 999 is out of range [1, 256]");
  await expect(page.getByRole('button', { name: 'Run' })).toBeDisabled();
  await page.goto('/labs/vector?live.multiget=999');
  await expect(page.locator('.lab-problems')).toContainText('live.multiget=999 in the link must be an integer in [1, 256]');
});

test('the block layer tab draws its timeline, and deferral batches completions per interrupt', async ({ page }) => {
  await page.goto('/labs/vector');
  const block = await blockTab(page);
  await expect(page).toHaveURL(/live\.view=block/);
  await block.getByLabel('speed').selectOption({ label: '20 ms per second' });
  await block.getByRole('button', { name: 'Play' }).click();
  const iops = block.locator('dd[data-counter="iops"]');
  await expect.poll(() => num(iops), { timeout: 60_000 }).toBeGreaterThan(1000);
  const canvas = block.getByTestId('vector-block-timeline');
  await expect(canvas).toBeVisible();
  await expect(canvas).toHaveAttribute('aria-label', /[1-9]\d* I\/Os in the window/);
  expect(await canvas.evaluate((c: HTMLCanvasElement) => c.height)).toBeGreaterThan(100);
  await expect(block.getByTestId('vector-block-gaps')).toBeVisible();
  // One interrupt per completion, stock; a timer deferral gathers several.
  const perIrq = block.locator('dd[data-counter="completions_per_irq"]');
  await expect.poll(() => num(perIrq), { timeout: 60_000 }).toBeLessThan(1.2);
  await block.getByRole('combobox', { name: 'interrupt coalescing' }).selectOption('defer');
  await expect.poll(() => num(perIrq), { timeout: 60_000 }).toBeGreaterThan(1.5);
  await expect(page).toHaveURL(/live\.coalescing=defer/);
  await canvas.scrollIntoViewIfNeeded();
  await shot(page, 'vector-block');
  const axe = await new AxeBuilder({ page }).include('#tabpanel-block').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // From the keyboard: Space on the focused timeline pauses and plays.
  await canvas.focus();
  await page.keyboard.press(' ');
  await expect(block.getByRole('button', { name: 'Play' })).toBeVisible();
  await page.keyboard.press(' ');
  await expect(block.getByRole('button', { name: 'Pause' })).toBeVisible();
  await block.getByRole('button', { name: 'Pause' }).click();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the Vector I/O lab fits a phone on both tabs', async ({ page }) => {
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    await page.goto('/labs/vector');
    await expect(page.getByTestId('vector-net-pipeline')).toBeVisible();
    await page.locator('#tabpanel-net').getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => num(page.getByTestId('vector-net-throughput')), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await width()).toBeLessThanOrEqual(390);
    await shot(page, 'phone-vector-net');
    const block = await blockTab(page);
    await block.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => num(block.locator('dd[data-counter="iops"]')), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await width()).toBeLessThanOrEqual(390);
    await shot(page, 'phone-vector-block');
  });
});

test('a lesson scenario loads into the block view and plays it: the Xeon keeps the NCQ full', async ({ page }) => {
  await page.goto('/labs/vector');
  await expect(page.getByRole('alert').filter({ hasText: 'This lesson has problems' })).toHaveCount(0);
  await page.locator('aside[data-scenario="block-xeon"]').getByRole('button', { name: /live block layer/ }).click();
  await expect(page.getByRole('tab', { name: /Block layer/ })).toHaveAttribute('aria-selected', 'true');
  const block = page.locator('#tabpanel-block');
  await expect(block.getByRole('combobox', { name: 'host' })).toHaveValue('xeon');
  await expect(block.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(() => num(block.locator('dd[data-counter="device_queue"]')), { timeout: 60_000 }).toBeGreaterThanOrEqual(30);
  await expect.poll(() => num(block.locator('dd[data-counter="iops"]')), { timeout: 60_000 }).toBeGreaterThan(40_000);
  await block.getByRole('button', { name: 'Pause' }).click();
});
