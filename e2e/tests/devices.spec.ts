// User flows through the Devices lab: reproduce FAWN Table 1 on the emulated CF card, watch
// the flash device's garbage collector at work, watch the disk seek, and load a lesson's live
// scenarios into the right view.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO, shot } from './helpers';

interface Sc { id: string; live?: { view?: string } }
const scenarios = JSON.parse(readFileSync(resolve(REPO, 'lessons/devices/scenarios.json'), 'utf8')) as Sc[];

/** A counter's value as a number (the first number in its text, thousands commas removed). */
async function counter(scope: Locator, name: string): Promise<number> {
  const text = (await scope.locator(`dd[data-counter="${name}"]`).textContent()) ?? '';
  const m = /-?[\d,]*\.?\d+(e[-+]?\d+)?[kMG]?/.exec(text);
  if (!m) return NaN;
  const suffix = { k: 1e3, M: 1e6, G: 1e9 }[m[0].slice(-1)] ?? 1;
  return Number(m[0].replace(/,/g, '').replace(/[kMG]$/, '')) * suffix;
}

async function selectView(page: Page, name: RegExp) {
  await page.getByRole('tab', { name }).click();
}

test('home → Devices lab → run devices.table1: FAWN Table 1 within 10%', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /Devices/ }).click();
  await expect(page).toHaveURL(/\/labs\/devices$/);
  await page.getByLabel('Experiment', { exact: true }).selectOption('devices.table1');
  await expect(page).toHaveURL(/exp=devices\.table1/);
  await page.getByRole('button', { name: 'Run' }).click();
  const anchors: Record<string, number> = { seq_read_mb_s: 28.5, rand_read_qps: 1424, seq_write_mb_s: 24, rand_write_qps: 110 };
  for (const [metric, paper] of Object.entries(anchors)) {
    const cell = page.locator(`tr[data-metric="${metric}"] td.num`).first();
    await expect(cell).toBeVisible({ timeout: 120_000 });
    const v = Number(await cell.getAttribute('data-value'));
    expect(Math.abs(v - paper) / paper, `${metric} = ${v}, paper ${paper}`).toBeLessThanOrEqual(0.1);
    await expect(page.locator(`tr[data-metric="${metric}"] td.pass`)).toContainText('yes');
  }
  await page.locator('table.metrics').scrollIntoViewIfNeeded();
  await shot(page, 'devices-table1');
  // The latency CDFs are steps: every segment of a measured curve is level or upright.
  const cdf = page.locator('figure.chart', { has: page.getByText('fraction of reads ≤ x') });
  await cdf.screenshot({ path: resolve(REPO, 'e2e/screenshots/devices-table1-cdf.png') });
  const d = (await cdf.locator('g[data-kind="measured"] path').first().getAttribute('d')) ?? '';
  const pts = [...d.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  expect(pts.length).toBeGreaterThan(2);
  for (let i = 1; i < pts.length; i++) expect(pts[i]![0] === pts[i - 1]![0] || pts[i]![1] === pts[i - 1]![1], d).toBe(true);
});

test('the live flash device fills, then its garbage collector copies and erases', async ({ page }) => {
  await page.goto('/labs/devices');
  const flash = page.locator('#tabpanel-flash');
  await expect(page.getByRole('tab', { name: /Flash/ })).toHaveAttribute('aria-selected', 'true');
  const svg = flash.locator('svg.flash-svg');
  await expect(svg.locator('g.block')).toHaveCount(32);
  await expect(svg).toContainText('Flash: intel-x25m');
  await shot(page, 'devices-flash-fresh');

  // Stepping runs one event at a time.
  const time = flash.getByTestId('flash-time');
  const t0 = await time.textContent();
  for (let i = 0; i < 5; i++) await flash.getByRole('button', { name: 'Step' }).click();
  await expect(time).not.toHaveText(t0!);

  await flash.getByLabel('speed').selectOption({ label: '100 ms per second' });
  await flash.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => counter(flash, 'erases'), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(() => counter(flash, 'gc_moves'), { timeout: 60_000 }).toBeGreaterThan(0);
  // The view shows stale pages and a collector copy in flight.
  await expect.poll(async () => Number(await svg.getAttribute('data-invalid')), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(svg.locator('rect.page[data-s="x"]').first()).toBeVisible();
  await expect(svg.locator('g.gc-move').first()).toBeAttached({ timeout: 30_000 });
  expect(await counter(flash, 'write_amplification')).toBeGreaterThan(1);
  await svg.scrollIntoViewIfNeeded();
  await shot(page, 'devices-flash-gc');
  await flash.getByRole('button', { name: 'Pause' }).click();
  await expect(flash.getByRole('button', { name: 'Play' })).toBeVisible();

  // A structural change starts a new device.
  await flash.getByRole('spinbutton', { name: 'erase blocks' }).fill('64');
  await expect(svg.locator('g.block')).toHaveCount(64);
  await expect.poll(() => counter(flash, 'erases')).toBe(0);
});

test('the live disk seeks, turns and completes requests', async ({ page }) => {
  await page.goto('/labs/devices');
  await selectView(page, /Disk/);
  const disk = page.locator('#tabpanel-disk');
  const svg = disk.locator('svg.disk-svg');
  await expect(svg).toContainText('Disk: disk-7200');
  await expect(svg.locator('text.badge-state')).toBeVisible();
  const head0 = await svg.getAttribute('data-head');
  const spin0 = await svg.locator('g.spin').getAttribute('transform');
  await disk.getByLabel('speed').selectOption({ label: '100 ms per second' });
  await disk.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => counter(disk, 'completed'), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(() => svg.getAttribute('data-head'), { timeout: 30_000 }).not.toBe(head0);
  expect(await svg.locator('g.spin').getAttribute('transform')).not.toBe(spin0);
  // Slow down to see the head, the target sector and the queue at work.
  await disk.getByLabel('speed').selectOption({ label: '10 ms per second' });
  await disk.getByRole('spinbutton', { name: 'rate (reads/s)' }).fill('120');
  await expect(svg.locator('path.target-sector')).toBeAttached({ timeout: 30_000 });
  await svg.scrollIntoViewIfNeeded();
  await shot(page, 'devices-disk');
  // The rate change started a new counting window: wait for its first completed read.
  await expect.poll(() => counter(disk, 'mean_seek_ms'), { timeout: 30_000 }).toBeGreaterThan(0);
  await disk.getByRole('button', { name: 'Pause' }).click();

  // With no requests the disk spins down to standby.
  await disk.getByRole('spinbutton', { name: 'rate (reads/s)' }).fill('0');
  await disk.getByRole('spinbutton', { name: 'spin down after (s)' }).fill('2');
  await disk.getByLabel('speed').selectOption({ label: '10 s per second' });
  await disk.getByRole('button', { name: 'Play' }).click();
  await expect(svg).toHaveAttribute('data-state', 'standby', { timeout: 30_000 });
  await disk.getByRole('button', { name: 'Pause' }).click();
  await shot(page, 'devices-disk-standby');
});

test('the live views work from the keyboard', async ({ page }) => {
  await page.goto('/labs/devices');
  const flashTab = page.getByRole('tab', { name: /Flash/ });
  await flashTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /Disk/ })).toBeFocused();
  await expect(page.locator('#tabpanel-disk')).toBeVisible();
  await expect(page.locator('#tabpanel-flash')).toBeHidden();
  await page.keyboard.press('ArrowLeft');
  await expect(flashTab).toBeFocused();
  // Space on the focused view plays and pauses; period steps.
  const svg = page.locator('svg.flash-svg');
  await svg.focus();
  await page.keyboard.press(' ');
  await expect(page.locator('#tabpanel-flash').getByRole('button', { name: 'Pause' })).toBeVisible();
  await shot(page, 'devices-keyboard');
  await page.keyboard.press(' ');
  await expect(page.locator('#tabpanel-flash').getByRole('button', { name: 'Play' })).toBeVisible();
});

test('lesson live scenarios load into the flash view and the disk view', async ({ page }) => {
  const flashSc = scenarios.find((s) => s.live?.view === 'flash');
  const diskSc = scenarios.find((s) => s.live?.view === 'disk');
  test.skip(!flashSc || !diskSc, 'the devices lesson has no live scenario for each view');
  await page.goto('/labs/devices');
  await expect(page.getByRole('alert').filter({ hasText: 'This lesson has problems' })).toHaveCount(0);
  await page.locator(`aside[data-scenario="${diskSc!.id}"]`).getByRole('button', { name: /live disk view/ }).click();
  await expect(page.getByRole('tab', { name: /Disk/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#tabpanel-disk')).toBeVisible();
  await page.locator(`aside[data-scenario="${flashSc!.id}"]`).getByRole('button', { name: /live flash view/ }).click();
  await expect(page.getByRole('tab', { name: /Flash/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#tabpanel-flash svg.flash-svg g.block').first()).toBeVisible();
});
