// User flows through the SRCMap lab: open it from home, run part of a day and see the power
// curve step on the chart while disks spin down, change the level and see the next decision
// take it, run srcmap.metadata and export its CSV, run srcmap.timeline and get the native
// build's bytes, meet a bad parameter's named error, load a lesson scenario into the live view,
// and fit a phone.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { REPO, downloadText, nativeRun, shot } from './helpers';

/** What the screen shows now (not the full page): a phone's full page is too tall to look at. */
async function screenShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: resolve(REPO, 'e2e/screenshots', `${name}.png`) });
}

/** "06:30" → 6.5 (NaN when the text is not a clock). */
function hoursOf(text: string | null): number {
  const m = /(\d\d):(\d\d)/.exec(text ?? '');
  return m ? Number(m[1]) + Number(m[2]) / 60 : NaN;
}

/** "42.6 W" → 42.6 (NaN for "— W"). */
function wattsOf(text: string | null): number {
  const m = /-?\d+(?:\.\d+)?/.exec(text ?? '');
  return m ? Number(m[0]) : NaN;
}

/** The watts line of the power chart (the widest stroke) as its points' y values, in order. */
async function wattsYs(live: Locator): Promise<number[]> {
  return live.getByTestId('srcmap-power-chart').evaluate((svg) => {
    const paths = [...svg.querySelectorAll('path')];
    const widest = paths.sort((a, b) => Number(b.getAttribute('stroke-width') ?? 0) - Number(a.getAttribute('stroke-width') ?? 0))[0];
    const d = widest?.getAttribute('d') ?? '';
    // M/L/H/V commands with absolute coordinates: collect every y (V's argument, or the second of a pair).
    const ys: number[] = [];
    let y = NaN;
    for (const m of d.matchAll(/([MLHV])\s*([-\d.eE]+)(?:[ ,]([-\d.eE]+))?/g)) {
      if (m[1] === 'V') y = Number(m[2]);
      else if (m[1] !== 'H') y = Number(m[3]);
      ys.push(y);
    }
    return ys;
  });
}

/** How many disks the map draws in a state (or, with `active`, in the policy's active set). */
async function disksWhere(live: Locator, attr: 'data-state' | 'data-active', value: string): Promise<number> {
  return live.locator(`[data-testid^="srcmap-disk-"][${attr}="${value}"]`).count();
}

async function openLive(page: Page): Promise<Locator> {
  await page.goto('/labs/srcmap');
  const live = page.locator('section.live-srcmap');
  await expect(live.getByTestId('srcmap-clock')).toBeVisible({ timeout: 60_000 });
  await expect(live.getByTestId('srcmap-disk-0')).toBeVisible({ timeout: 60_000 });
  return live;
}

async function runTo(live: Locator, hour: number): Promise<void> {
  await live.getByRole('spinbutton', { name: 'run to hour' }).fill(String(hour));
  await live.getByRole('button', { name: 'Run to', exact: true }).click();
  await expect.poll(async () => hoursOf(await live.getByTestId('srcmap-clock').textContent()), { timeout: 120_000 }).toBeGreaterThanOrEqual(hour);
}

test('home → SRCMap: run the morning, the power steps on the chart as disks spin down, then play on', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /SRCMap/ }).first().click();
  await expect(page).toHaveURL(/\/labs\/srcmap$/);
  const live = page.locator('section.live-srcmap');
  await expect(live.getByTestId('srcmap-clock')).toHaveText('00:00', { timeout: 60_000 });
  for (let i = 0; i < 8; i++) await expect(live.getByTestId(`srcmap-disk-${i}`)).toBeVisible();

  await runTo(live, 6);
  await expect(live.getByTestId('srcmap-clock')).toHaveText('06:00');
  // The watts are a number between the standby floor and the all-on line (plus spin-up spikes).
  await expect.poll(async () => wattsOf(await live.getByTestId('srcmap-watts').textContent())).toBeGreaterThanOrEqual(19.8);
  // A minute per point for six hours, at several heights: the power stepped.
  await expect.poll(async () => (await wattsYs(live)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(300);
  await expect.poll(async () => new Set((await wattsYs(live)).map((y) => Math.round(y))).size).toBeGreaterThanOrEqual(3);
  // SRCMap at L0 keeps some disks active and lets the rest stop: standby disks, and decisions in the events.
  await expect.poll(() => disksWhere(live, 'data-state', 'standby')).toBeGreaterThan(0);
  await expect.poll(() => disksWhere(live, 'data-active', 'true')).toBeGreaterThan(0);
  await expect(live.getByTestId('srcmap-events')).toContainText(/spin-down|spin-up|remap|interval/);
  await expect(live.getByTestId('srcmap-interval')).toContainText('SRCMap at L0');

  // Play: the clock moves on from 06:00 and the chart grows.
  const before = (await wattsYs(live)).length;
  await live.getByRole('button', { name: 'Play' }).click();
  await expect.poll(async () => hoursOf(await live.getByTestId('srcmap-clock').textContent()), { timeout: 60_000 }).toBeGreaterThan(6.5);
  await live.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(async () => (await wattsYs(live)).length).toBeGreaterThan(before);
  await live.getByTestId('srcmap-power-chart').scrollIntoViewIfNeeded();
  await shot(page, 'srcmap-morning');

  const axe = await new AxeBuilder({ page }).include('section.live-srcmap').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('the level changes the running day: a new decision at once, with fewer disks at L4', async ({ page }) => {
  const live = await openLive(page);
  await runTo(live, 9);
  await expect(live.getByTestId('srcmap-interval')).toContainText('at L0');
  await expect.poll(() => disksWhere(live, 'data-active', 'true')).toBeGreaterThan(1);
  const atL0 = await disksWhere(live, 'data-active', 'true');
  await live.getByLabel('Level', { exact: true }).fill('4');
  await live.getByLabel('Level', { exact: true }).press('Enter');
  await expect(live.getByTestId('srcmap-interval')).toContainText('at L4', { timeout: 30_000 });
  // The session decided again at once, with capacities 4 levels higher: fewer disks in the active set.
  await expect.poll(() => disksWhere(live, 'data-active', 'true'), { timeout: 30_000 }).toBeLessThan(atL0);
  await expect(live.getByTestId('srcmap-clock')).toHaveText('09:00');
  await live.getByTestId('srcmap-map').scrollIntoViewIfNeeded();
  await shot(page, 'srcmap-level-4');
});

test('run srcmap.metadata: the 13-byte map beside §3.7.3, exported as CSV', async ({ page }) => {
  await page.goto('/labs/srcmap?exp=srcmap.metadata&volumes=20');
  await expect(page.locator('#param-volumes')).toHaveValue('20');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const row = page.locator('tr[data-metric="bytes_per_entry"]');
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row.locator('td.num').first()).toHaveAttribute('data-value', '13');
  const dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await dl;
  expect(download.suggestedFilename()).toBe('srcmap.metadata-seed1-volumes=20.csv');
  const csv = await downloadText(download);
  expect(csv.split('\n')[0]).toBe('kind,name,x_label,y_label,x,y');
  expect(csv).toContain('param,volumes,,,,20\n');
  expect(csv).toMatch(/metric,map_gb,,,,6\.\d/);  // twice the thesis's 3.2 GB for twice the volumes
  await shot(page, 'srcmap-metadata');
});

test('run srcmap.timeline (Fig 3.8): L0 and L3 beside the thesis, the same bytes as the native build', async ({ page }) => {
  await page.goto('/labs/srcmap');
  await page.getByLabel('Experiment', { exact: true }).selectOption('srcmap.timeline');
  await expect(page).toHaveURL(/exp=srcmap\.timeline/);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // [metric, the thesis's value]
  for (const [metric, paper] of [['all_on_w', 66.1], ['standby_w', 19.8], ['l0_saved_w', 23.5], ['l3_saved_w', 38.9]] as const) {
    const row = page.locator(`tr[data-metric="${metric}"]`);
    await expect(row).toBeVisible({ timeout: 120_000 });
    expect(wattsOf(await row.locator('td.num').nth(1).textContent()), `${metric}'s anchor`).toBeCloseTo(paper, 1);
  }
  const saved3 = Number(await page.locator('tr[data-metric="l3_saved_w"] td.num').first().getAttribute('data-value'));
  const saved0 = Number(await page.locator('tr[data-metric="l0_saved_w"] td.num').first().getAttribute('data-value'));
  expect(saved3, 'L3 (the aggressive estimate) saves more than L0').toBeGreaterThan(saved0);
  await page.locator('tr[data-metric="l3_saved_w"]').scrollIntoViewIfNeeded();
  await shot(page, 'srcmap-timeline');

  const dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = await downloadText(await dl);
  const native = nativeRun('srcmap.timeline', {}, '1');
  if (native !== null) expect(json).toBe(native);
});

test('a bad parameter gets a named error: in a live link and in an experiment link', async ({ page }) => {
  await page.goto('/labs/srcmap?live.level=9');
  await expect(page.locator('.lab-problems')).toContainText('live.level=9 in the link must be an integer in [0, 4]');
  await page.goto('/labs/srcmap?exp=srcmap.metadata&replica_pct=500');
  await expect(page.getByRole('alert').filter({ hasText: 'replica_pct' })).toContainText("parameter 'replica_pct' = 500 is out of range");
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
});

test('a lesson scenario loads into the live view: the morning at L3', async ({ page }) => {
  await page.goto('/labs/srcmap');
  await expect(page.getByRole('alert').filter({ hasText: 'This lesson has problems' })).toHaveCount(0);
  await page.locator('aside[data-scenario="morning-l3"]').getByRole('button', { name: /Load into/ }).click();
  const live = page.locator('section.live-srcmap');
  await expect(live.getByTestId('srcmap-setup-summary')).toContainText('SRCMap at L3');
  // The script runs the day to 06:00 and the day stops there, for the student to look.
  await expect(live.getByTestId('srcmap-clock')).toHaveText('06:00', { timeout: 120_000 });
  await expect(live.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(live.getByTestId('srcmap-interval')).toContainText('at L3');
  await expect.poll(async () => wattsOf(await live.getByTestId('srcmap-watts').textContent())).toBeGreaterThanOrEqual(19.8);
  await expect.poll(async () => (await wattsYs(live)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(300);
  await live.getByTestId('srcmap-map').scrollIntoViewIfNeeded();
  await shot(page, 'srcmap-scenario-l3');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the SRCMap lab fits a phone', async ({ page }) => {
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    const live = await openLive(page);
    await runTo(live, 4);
    await live.getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => hoursOf(await live.getByTestId('srcmap-clock').textContent()), { timeout: 60_000 }).toBeGreaterThan(4.2);
    await live.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(width).toBeLessThanOrEqual(390);
    await shot(page, 'phone-srcmap');
    await live.getByTestId('srcmap-clock').scrollIntoViewIfNeeded();
    await screenShot(page, 'phone-srcmap-clock');
    await live.getByTestId('srcmap-map').scrollIntoViewIfNeeded();
    await screenShot(page, 'phone-srcmap-map');
    await live.getByTestId('srcmap-power-chart').scrollIntoViewIfNeeded();
    await screenShot(page, 'phone-srcmap-chart');
  });
});
