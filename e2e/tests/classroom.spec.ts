// Teaching in class: presentation mode (the lesson in a drawer, the views full width, chart text
// at least 16 px at 1280 × 720), the guided tour (next / previous, "step n of N", each step's
// scenario loaded into the view), a shared link that opens the same step, scenario and live
// settings, and a page title per lab. Screenshots under e2e/screenshots/present-*.png.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { REPO, shot } from './helpers';

const PROJECTOR = { width: 1280, height: 720 };

/** The on-screen size (px) of the smallest text in each experiment chart: its font size × the SVG's scale. */
async function smallestChartText(page: Page): Promise<number> {
  return page.locator('.chart-svg').first().evaluate(() => {
    let min = Infinity;
    for (const svg of document.querySelectorAll<SVGSVGElement>('.chart-svg')) {
      const scale = svg.getScreenCTM()?.a ?? 0;
      for (const t of svg.querySelectorAll('text')) {
        if (!t.textContent?.trim() || t.closest('[display="none"]')) continue;
        const size = parseFloat(getComputedStyle(t).fontSize);
        min = Math.min(min, size * scale);
      }
    }
    return min;
  });
}

test('every lab page has its own title', async ({ page }) => {
  for (const [path, title] of [['/labs/queues', 'Queues · fawnlab'], ['/labs/devices', 'Devices · fawnlab'], ['/labs/fawnds', 'FAWN-DS · fawnlab'],
    ['/labs/fawnkv', 'FAWN-KV · fawnlab'], ['/cluster', 'Cluster · fawnlab'], ['/labs/nope', 'Not found · fawnlab']]) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
  await page.goto('/');
  await expect(page).toHaveTitle(/^fawnlab/);
});

test('presentation mode: the lesson in a drawer, full-width views, chart text at least 16 px', async ({ page }) => {
  await page.setViewportSize(PROJECTOR);
  await page.goto('/labs/queues?exp=queues.mm1&seed=1&points=4');
  await expect(page.locator('.chart-svg').first()).toBeVisible({ timeout: 120_000 });
  const normal = await smallestChartText(page);
  expect(normal).toBeGreaterThanOrEqual(10.5);
  // The toggle, from the keyboard.
  const toggle = page.getByRole('button', { name: 'Present' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/present=1/);
  const lesson = page.locator('#lab-lesson');
  await expect(lesson).toBeHidden();
  // The views take the page's width.
  const work = (await page.locator('.lab-work').boundingBox())!;
  expect(work.width).toBeGreaterThan(PROJECTOR.width - 80);
  const chart = (await page.locator('.chart').first().boundingBox())!;
  expect(chart.width).toBeGreaterThan(PROJECTOR.width - 120);
  await expect.poll(() => smallestChartText(page)).toBeGreaterThanOrEqual(16);
  await page.locator('.chart').first().scrollIntoViewIfNeeded();
  await shot(page, 'present-queues-chart');
  // The lesson opens as a drawer and Escape closes it.
  await page.getByRole('button', { name: 'Lesson' }).click();
  await expect(lesson).toBeVisible();
  await expect(lesson.getByRole('heading', { level: 1 })).toBeVisible();
  await shot(page, 'present-queues-drawer');
  await page.keyboard.press('Escape');
  await expect(lesson).toBeHidden();
  // A link with present=1 opens in presentation mode.
  await page.goto('/labs/fawnkv?present=1');
  await expect(page.getByRole('button', { name: 'Present' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('fawnkv-ring')).toBeVisible();
  await shot(page, 'present-fawnkv');
});

interface Sc { id: string; title: string; live?: Record<string, unknown>; experiment?: string }

test('the guided tour steps through the lesson’s scenarios and a link reopens the same step', async ({ page }) => {
  const scenarios = JSON.parse(readFileSync(resolve(REPO, 'lessons/fawnkv/scenarios.json'), 'utf8')) as Sc[];
  await page.setViewportSize(PROJECTOR);
  await page.goto('/labs/fawnkv');
  await expect(page.getByTestId('fawnkv-ring')).toBeVisible();
  await page.getByRole('button', { name: /Guided tour/ }).click();
  const count = page.getByTestId('guide-count');
  await expect(count).toHaveText(/^Step 1 of \d+$/);
  const total = Number(/of (\d+)/.exec((await count.textContent()) ?? '')![1]);
  expect(total).toBeGreaterThanOrEqual(5);
  await expect(page).toHaveURL(/step=1/);
  const guide = page.locator('section.guide');
  const first = await guide.getByRole('heading', { level: 2 }).textContent();
  expect(scenarios.some((s) => s.title === first)).toBe(true);
  // Next (button), next (arrow key), previous (arrow key).
  await guide.getByRole('button', { name: 'Next →' }).click();
  await expect(count).toHaveText(`Step 2 of ${total}`);
  await page.locator('body').press('ArrowRight');
  await expect(count).toHaveText(`Step 3 of ${total}`);
  await page.locator('body').press('ArrowLeft');
  await expect(count).toHaveText(`Step 2 of ${total}`);
  await expect(page).toHaveURL(/step=2/);
  await guide.getByRole('button', { name: 'Next →' }).click();
  await expect(count).toHaveText(`Step 3 of ${total}`);
  // Step 3's scenario is in the view: its cluster has the scenario's node count.
  const title3 = (await guide.getByRole('heading', { level: 2 }).textContent())!;
  const s3 = scenarios.find((s) => s.title === title3)!;
  expect(s3.live).toBeDefined();
  await expect(page.getByTestId('fawnkv-nodes').locator('tbody tr')).toHaveCount(Number(s3.live!.nodes));
  await shot(page, 'guided-fawnkv-step3');
  // A changed live setting goes into the URL.
  await page.getByText('Cluster setup').click();
  await page.locator('#fawnkv-fe').fill('2');
  await expect(page).toHaveURL(/live\.front_ends=2/);
  const link = page.url();
  // Opening the shared link: the same step, the same scenario, the same settings.
  const other = await page.context().newPage();
  await other.setViewportSize(PROJECTOR);
  await other.goto(link);
  await expect(other.getByTestId('guide-count')).toHaveText(`Step 3 of ${total}`);
  await expect(other.locator('section.guide').getByRole('heading', { level: 2 })).toHaveText(title3);
  await expect(other.getByTestId('fawnkv-nodes').locator('tbody tr')).toHaveCount(Number(s3.live!.nodes));
  await expect(other.locator('#fawnkv-fe')).toHaveValue('2');
  await other.close();
  // Ending the tour keeps the scenario in the URL; a link to it loads it.
  await guide.getByRole('button', { name: 'End the tour' }).click();
  await expect(page.locator('section.guide')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`scenario=${s3.id}`));
});

test('a link to a live scenario opens it, and a bad link says what is wrong', async ({ page }) => {
  await page.goto('/labs/queues?student=5&scenario=calm-queue&live.servers=3');
  const servers = page.locator('.live-config input').first();
  await expect(servers).toHaveValue('3');
  // An edit rewrites the live fields and keeps the rest of the link (the student seed).
  await servers.fill('2');
  await expect(page).toHaveURL(/\?student=5&scenario=calm-queue&live\.servers=2$/);
  await page.goto('/labs/queues?scenario=no-such&step=x&live.servers=99');
  const alert = page.locator('.lab-problems');
  await expect(alert).toContainText("step 'x' in the link must be a whole number from 1");
  await expect(alert).toContainText("scenario 'no-such' in the link is not in this lesson");
  await expect(alert).toContainText('live.servers=99 in the link must be an integer in [1, 16]');
});
