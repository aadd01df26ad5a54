// User flows through the Queues lab: open it from home, run an experiment and see the lab's
// curve on the theory's, drive it from the URL, export, meet a bad parameter, use the live
// queue and the lesson.
import { expect, test } from '@playwright/test';
import { downloadText, nativeRun, shot } from './helpers';

test('home → Queues lab → run queues.mm1: the simulated curve sits on the theory', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Why flash changed storage design');
  await shot(page, 'home');
  await page.getByRole('link', { name: /Queues/ }).click();
  await expect(page).toHaveURL(/\/labs\/queues$/);
  await expect(page.getByLabel('Experiment', { exact: true })).toHaveValue('queues.mm1');

  await page.getByRole('button', { name: 'Run' }).click();
  const chart = page.locator('figure[data-chart="response time against utilisation ρ"]');
  await expect(chart).toBeVisible();
  await expect(chart.locator('g[data-kind="measured"] circle').first()).toBeVisible();
  await expect(chart.locator('g[data-kind="theory"] path').first()).toBeVisible();
  for (const m of ['mean_response_us_at_rho_0_5', 'mean_response_us_at_rho_0_8', 'mean_response_us_at_rho_0_9']) {
    await expect(page.locator(`tr[data-metric="${m}"] td.pass`)).toContainText('yes');
  }
  await expect(page).toHaveURL(/exp=queues\.mm1/);
  await shot(page, 'queues-mm1');

  // The browser computed the same bytes as the native build.
  const dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = await downloadText(await dl);
  const native = nativeRun('queues.mm1', {}, '1');
  if (native !== null) expect(json).toBe(native);
});

test('a parameter set through the URL runs and exports as CSV', async ({ page }) => {
  await page.goto('/labs/queues?exp=queues.mm1&seed=5&servers=4&points=3&requests=100000');
  await expect(page.locator('#param-servers')).toHaveValue('4');
  const row = page.locator('tr[data-metric="mean_response_us_at_rho_0_9"]');
  await expect(row).toBeVisible();
  const dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await dl;
  expect(download.suggestedFilename()).toBe('queues.mm1-seed5-servers=4-points=3-requests=100000.csv');  // the changed parameters
  const csv = await downloadText(download);
  expect(csv.split('\n')[0]).toBe('kind,name,x_label,y_label,x,y');
  expect(csv).toContain('param,servers,,,,4\n');
  expect(csv).toContain('seed,seed,,,,5\n');
  expect(csv).toMatch(/anchor,mean_response_us_at_rho_0_9,,,,\d/);
});

test('a bad parameter shows a clear error and cannot run', async ({ page }) => {
  await page.goto('/labs/queues?exp=queues.mm1&servers=0');
  const alert = page.getByRole('alert').filter({ hasText: 'servers' });
  await expect(alert).toHaveText("parameter 'servers' = 0 is out of range [1, 64] servers for queues.mm1");
  await expect(page.getByRole('button', { name: 'Run' })).toBeDisabled();
  await expect(page.locator('#param-servers')).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'bad-parameter');
  // Typing a good value clears it; typing text names the problem again.
  await page.locator('#param-servers').fill('2');
  await expect(page.getByRole('button', { name: 'Run' })).toBeEnabled();
  await page.locator('#param-service_us').fill('fast');
  await expect(page.getByRole('alert').filter({ hasText: 'service_us' })).toContainText("must be a number in [0.1, 1000000] µs, got 'fast'");
  await page.locator('#seed').fill('-1');
  await page.locator('#param-service_us').fill('10');
  await expect(page.getByRole('alert').filter({ hasText: 'seed' })).toContainText("seed '-1' must be an integer");
});

test('the experiment panel works from the keyboard, and a run can be cancelled', async ({ page }) => {
  await page.goto('/labs/queues');
  await page.getByLabel('Experiment', { exact: true }).focus();
  await page.keyboard.press('Tab');
  await page.getByRole('button', { name: 'Run' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await page.keyboard.press('Tab');
  await page.getByRole('button', { name: 'Cancel' }).press('Enter');
  await expect(page.getByRole('button', { name: 'Run' })).toBeVisible();
  await expect(page.locator('section.result')).toHaveCount(0);
});

test('a double click on Run runs once: the second click does not cancel it', async ({ page }) => {
  await page.goto('/labs/queues');
  await page.getByRole('button', { name: 'Run' }).dblclick();
  await expect(page.getByRole('button', { name: 'Run' })).toBeDisabled();
  await expect(page.locator('section.result')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Run' })).toBeEnabled();
});

test('the live queue plays, steps and counts', async ({ page }) => {
  await page.goto('/labs/queues');
  const live = page.locator('section.live');
  await live.getByRole('button', { name: 'Play' }).click();
  await page.waitForTimeout(2500);
  await live.getByRole('button', { name: 'Pause' }).click();
  const done = live.locator('dt', { hasText: 'arrived / done / dropped' }).locator('xpath=../dd');
  const before = await done.textContent();
  expect(Number(before!.split('/')[1])).toBeGreaterThan(0);
  await expect(live.locator('svg.queue-svg circle').first()).toBeVisible();
  await shot(page, 'live-queue');
  const t0 = await live.getByText(/virtual time/).textContent();
  for (let i = 0; i < 5; i++) await live.getByRole('button', { name: 'Step' }).click();
  await expect(live.getByText(/virtual time/)).not.toHaveText(t0!);
});
