// User flows through the FAWN-DS lab: keys into the log and the index, a delete reclaimed by
// compaction, a crash and recovery, bad parameters, a lesson scenario, and experiments run
// from the panel (FAWN Table 2's cliff).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { REPO, shot } from './helpers';

/** A counter's text. */
const counter = (page: Page, name: string): Locator => page.locator(`dd[data-counter="${name}"]`);

async function op(page: Page, button: string, key?: string, value?: string) {
  if (key !== undefined) await page.locator('#fawnds-key').fill(key);
  if (value !== undefined) await page.locator('#fawnds-value').fill(value);
  await page.getByRole('button', { name: button, exact: true }).click();
}

async function openLab(page: Page) {
  await page.goto('/labs/fawnds');
  await expect(page.getByRole('heading', { name: 'Live FAWN-DS node' })).toBeVisible();
  await expect(page.getByTestId('fawnds-log')).toBeVisible();
  await expect(counter(page, 'records')).toHaveText('0');
}

test('put three keys, delete one, compact it away, crash and recover them', async ({ page }) => {
  await openLab(page);
  const result = page.getByTestId('fawnds-result');
  const keys: Array<[string, string]> = [['apple', 'red'], ['banana', 'yellow'], ['cherry', 'dark red']];
  for (const [k, v] of keys) {
    await op(page, 'Put', k, v);
    await expect(result).toContainText(`put “${k}” → store`);
  }
  await expect(counter(page, 'records')).toHaveText('3');
  await expect(counter(page, 'states')).toHaveText('live 3 · orphaned 0 · deleted 0 · out of range 0 · lost 0');
  await expect(counter(page, 'live_keys')).toHaveText('3');
  // A get shows its probe sequence and the flash read it caused.
  await op(page, 'Get', 'cherry');
  await expect(result).toContainText('get “cherry” → “dark red”');
  const lookup = page.getByTestId('fawnds-lookup');
  await expect(lookup).toContainText('KEYFRAG');
  await expect(lookup.locator('table.probe-table tbody tr').last()).toContainText('hit');
  await expect(lookup).toContainText('flash read 1');
  await page.getByTestId('fawnds-log').scrollIntoViewIfNeeded();
  await shot(page, 'fawnds-three-keys');

  // Delete: a delete record is appended and banana's put is dead.
  await op(page, 'Delete', 'banana');
  await expect(result).toContainText('delete “banana” → store');
  const store = /store (\d+)/.exec((await result.textContent()) ?? '')![1]!;
  await expect(counter(page, 'records')).toHaveText('4');
  await expect(counter(page, 'states')).toHaveText('live 2 · orphaned 0 · deleted 2 · out of range 0 · lost 0');
  // Compact banana's store (the store selector follows the last key operation); it plays.
  await expect(page.locator('#fawnds-store')).toHaveValue(store);
  await page.getByLabel('speed').selectOption({ label: '100 ms per second' });
  await page.getByRole('button', { name: 'Compact' }).click();
  await expect(result).toContainText(`compact of store ${store} started`);
  await expect(page.getByTestId('fawnds-maintenance')).toContainText('Last maintenance: compact finished', { timeout: 60_000 });
  await expect(counter(page, 'records')).toHaveText('2');
  await expect(counter(page, 'states')).toHaveText('live 2 · orphaned 0 · deleted 0 · out of range 0 · lost 0');
  await page.getByRole('button', { name: 'Pause' }).click();

  // Sync, then crash and recover: both keys come back, banana stays deleted.
  await page.getByRole('button', { name: 'Sync' }).click();
  await expect(result).toContainText('synced');
  await expect(page.getByTestId('fawnds-unsynced')).toHaveText('unsynced: 0 bytes');
  await op(page, 'Put', 'date', 'brown');  // never synced
  await page.getByRole('button', { name: 'Crash' }).click();
  await expect(result).toContainText('crash: 1 record lost');
  await expect(page.locator('.crash-badge')).toBeVisible();
  await expect(counter(page, 'states')).toContainText('lost 1');
  await expect(page.getByTestId('fawnds-index-note')).toContainText('lost in the crash');
  await expect(page.getByRole('button', { name: 'Get', exact: true })).toBeDisabled();
  await shot(page, 'fawnds-crashed');
  await page.getByRole('button', { name: 'Recover' }).click();
  await expect(result).toContainText('recovered 4 stores');
  await expect(page.getByTestId('fawnds-recovery')).toBeVisible();
  for (const [k, v] of [['apple', 'red'], ['cherry', 'dark red']]) {
    await op(page, 'Get', k);
    await expect(result).toContainText(`get “${k}” → “${v}”`);
  }
  await op(page, 'Get', 'banana');
  await expect(result).toContainText('get “banana” → not found');
  await op(page, 'Get', 'date');
  await expect(result).toContainText('get “date” → not found in store');
  await page.getByTestId('fawnds-recovery').scrollIntoViewIfNeeded();
  await shot(page, 'fawnds-recovered');
});

test('bad parameters show a clear error', async ({ page }) => {
  await openLab(page);
  const error = page.getByTestId('fawnds-error');
  await op(page, 'Put', '');
  await expect(error).toHaveText('key must be 1 to 128 characters (got 0)');
  await page.locator('#fawnds-fraction').fill('1.5');
  await page.getByRole('button', { name: 'Split' }).click();
  await expect(error).toHaveText("split's 'fraction' must be a number strictly between 0 and 1");
  await page.locator('#fawnds-fraction').fill('half');
  await page.getByRole('button', { name: 'Split' }).click();
  await expect(error).toHaveText("split's 'fraction' must be a number strictly between 0 and 1");
  // A setup the device cannot hold names the numbers.
  await page.getByText('Node setup').click();
  await page.locator('#fawnds-capacity').fill('64');
  await expect(page.getByTestId('fawnds-config-error')).toContainText('capacity_mb = 64 holds 3 files of 16 MB; the node needs stores + 1 = 5');
  await page.locator('#fawnds-capacity').fill('256');
  await expect(page.getByTestId('fawnds-config-error')).toHaveCount(0);
  // Good input clears the error.
  await op(page, 'Put', 'fig', 'purple');
  await expect(error).toHaveCount(0);
});

test('the log view reads by keyboard, zooms, and draws a big log', async ({ page }) => {
  await openLab(page);
  // 4 stores of 2^10 buckets cannot hold 20,000 keys: the fill stops and says why.
  await page.locator('#fawnds-fill').fill('20000');
  await page.getByRole('button', { name: 'Fill' }).click();
  await expect(page.getByTestId('fawnds-error')).toContainText('probe sequence are taken; use more index bits or split the store');
  await page.getByText('Node setup').click();
  await page.locator('#fawnds-index-bits').fill('14');
  await expect(counter(page, 'records')).toHaveText('0');
  await page.getByRole('button', { name: 'Fill' }).click();
  await expect(page.getByTestId('fawnds-result')).toContainText('fill: 20,000 of 20,000 keys');
  await expect(counter(page, 'records')).toHaveText('20,000');
  const log = page.getByTestId('fawnds-log');
  await log.focus();
  const readout = page.locator('#fawnds-log-readout');
  await expect(readout).toContainText('record 1 of');
  await page.keyboard.press('ArrowRight');
  await expect(readout).toContainText('record 2 of');
  await page.keyboard.press('ArrowDown');
  await expect(readout).toContainText('store 1, record 2 of');
  for (let i = 0; i < 6; i++) await page.keyboard.press('+');
  await page.keyboard.press('End');
  await expect(readout).toHaveText(/record ([\d,]+) of \1: put of key [0-9a-f]{8}…/);
  await shot(page, 'fawnds-zoomed');
  await page.keyboard.press('0');
  // The index grid reads by keyboard too.
  const index = page.getByTestId('fawnds-index');
  await index.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#fawnds-index-readout')).toContainText('buckets 4–7: ');
});

test('a lesson scenario opens the node mid-story', async ({ page }) => {
  await page.goto('/labs/fawnds');
  const card = page.locator('.scenario', { hasText: 'Three keys on one store' });
  await card.getByRole('button', { name: 'Load' }).click();
  await expect(counter(page, 'records')).toHaveText('5');
  await expect(counter(page, 'states')).toHaveText('live 2 · orphaned 1 · deleted 2 · out of range 0 · lost 0');
  await expect(page.getByTestId('fawnds-lookup')).toContainText('get “cherry”');
  // The log reads the keys as typed, not as hashes.
  const log = page.getByTestId('fawnds-log');
  await log.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#fawnds-log-readout')).toContainText('put of key “banana” at log offset 36');
  // A compaction ends with a synced commit; the old file's trim is no unsynced data.
  await page.getByRole('button', { name: 'Compact' }).click();
  await expect(page.getByTestId('fawnds-result')).toContainText(/compact of store 0 (finished|started: watch it run below)/);
  await expect(page.getByTestId('fawnds-result')).not.toContainText('press Play');
  await expect(counter(page, 'records')).toHaveText('2', { timeout: 10_000 });
  await expect(page.getByTestId('fawnds-unsynced')).toHaveText('unsynced: 0 bytes');
  await log.scrollIntoViewIfNeeded();
  await shot(page, 'fawnds-three-keys-compacted');
});

test('compaction under load: the lock shows, then the store list swaps', async ({ page }) => {
  await page.goto('/labs/fawnds');
  const card = page.locator('.scenario', { hasText: 'Compaction while the node serves requests' });
  await card.getByRole('button', { name: 'Load' }).click();
  const maintenance = page.getByTestId('fawnds-maintenance');
  await expect(maintenance).toContainText('compact of store 1', { timeout: 60_000 });
  // The scenario plays at once, at the auto speed: slow motion for the scan, slower for the
  // lock (25 ms for about 2.5 s); the page pauses the moment the lock shows, for the screenshot.
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(page.getByTestId('fawnds-auto')).toContainText('slow motion: compact of store 1 in progress', { timeout: 30_000 });
  const done = maintenance.filter({ hasText: 'Last maintenance: compact finished' });
  const sawLock = await page.waitForFunction(() => {  // the auto speed holds the lock on screen for seconds
    if (document.querySelector('.lock-note')) {
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Pause')?.click();
      return 'lock';
    }
    return (document.querySelector('[data-testid="fawnds-maintenance"]')?.textContent ?? '').includes('compact finished') ? 'done' : false;
  }, null, { polling: 'raf', timeout: 30_000 });
  expect(await sawLock.jsonValue()).toBe('lock');
  await expect(page.locator('.lock-note')).toContainText(/requests? held/);
  await page.getByTestId('fawnds-log').scrollIntoViewIfNeeded();
  await shot(page, 'fawnds-locked');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(maintenance).toContainText('Its lock held requests for 25 ms');
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('fawnds-timeline')).toBeVisible();
  await page.getByTestId('fawnds-timeline').scrollIntoViewIfNeeded();
  await shot(page, 'fawnds-after-compaction');
});

test('runs fawnds.bulk-insert from the experiment panel', async ({ page }) => {
  await page.goto('/labs/fawnds');
  await page.getByLabel('Experiment', { exact: true }).selectOption('fawnds.bulk-insert');
  await page.getByLabel('insert_mb').fill('8');
  await page.getByRole('button', { name: 'Run' }).click();
  const cell = page.locator('tr[data-metric="insert_mb_s"] td.num').first();
  await expect(cell).toBeVisible({ timeout: 120_000 });
  expect(Number(await cell.getAttribute('data-value'))).toBeGreaterThan(15);
  await expect(page.locator('tr[data-metric="index_bytes_per_bucket"] td.pass')).toContainText('yes');
});

test('runs fawnds.table2 and sees the cliff between 125 MB and 250 MB', async ({ page }) => {
  await page.goto('/labs/fawnds');
  await page.getByLabel('Experiment', { exact: true }).selectOption('fawnds.table2');
  await page.getByRole('button', { name: 'Run' }).click();
  const value = async (metric: string) => {
    const cell = page.locator(`tr[data-metric="${metric}"] td.num`).first();
    await expect(cell).toBeVisible({ timeout: 170_000 });
    return Number(await cell.getAttribute('data-value'));
  };
  for (const v of ['1kb', '256b']) {
    const small = await value(`qps_${v}_125mb`);
    const big = await value(`qps_${v}_250mb`);
    expect(small / big, `${v}: ${small} QPS at 125 MB, ${big} at 250 MB`).toBeGreaterThan(4);
    await expect(page.locator(`tr[data-metric="qps_${v}_125mb"] td.pass`)).toContainText('yes');
    await expect(page.locator(`tr[data-metric="qps_${v}_250mb"] td.pass`)).toContainText('yes');
  }
  await page.locator('.chart').first().scrollIntoViewIfNeeded();
  await shot(page, 'fawnds-table2');
  // Its log axis reads in decimal steps (1, 2, 5 × 10^k), not in powers of two.
  const chart = page.locator('figure.chart').first();
  await chart.screenshot({ path: resolve(REPO, 'e2e/screenshots/fawnds-table2-chart.png') });
  const yTicks = await chart.locator('svg g > g[font-size="11"]').nth(1).locator('.tick text').allTextContents();
  expect(yTicks.length).toBeGreaterThanOrEqual(2);
  for (const t of yTicks) expect(t, yTicks.join(' ')).toMatch(/^[125](0*|\.\d+)?(\s?[KkM])?$/);
});
