// Every page on a phone (390 × 844): nothing widens the page past the screen — the lesson, its
// scenario cards and exercises, the live views (after a scenario loads into them), the
// experiment panel with a result's charts and table, the home and cluster pages — and the
// FAWN-KV ring answers a tap. Screenshots under e2e/screenshots/phone-*.png. (cona.spec.ts also
// checks the CONA live view's fill, lookup and play on a phone.)
import { expect, test, type Page } from '@playwright/test';
import { shot } from './helpers';

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

/** The page's width beyond the screen's (0 when it fits), and the elements that stick out. */
async function overflow(page: Page): Promise<{ extra: number; culprits: string[] }> {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const culprits: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > w + 1 && !el.closest('.table-wrap, .lesson table, pre, .command, .probe-table-wrap, .canvas-wrap')) {
        culprits.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${String(el.className).split(' ')[0]} right=${Math.round(r.right)}`);
      }
    }
    return { extra: document.documentElement.scrollWidth - w, culprits: culprits.slice(0, 8) };
  });
}

async function fits(page: Page, what: string) {
  const o = await overflow(page);
  expect(o.culprits, `${what}: elements past the right edge`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${what}: document.scrollWidth`).toBeLessThanOrEqual(PHONE.width);
}

/** Loads the lesson's first live scenario into the view (or, with `id`, that one). */
async function loadLive(page: Page, id?: string) {
  const card = id ? page.locator(`aside[data-scenario="${id}"]`) : page.locator('aside[data-scenario]').filter({ hasText: 'Load into the live' }).first();
  await card.getByRole('button').click();
}

test('home and cluster pages fit a phone', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await fits(page, 'home');
  await shot(page, 'phone-home');
  await page.goto('/cluster');
  await expect(page.getByRole('heading', { name: 'Real cluster', level: 1 })).toBeVisible();
  await fits(page, 'cluster');
  await shot(page, 'phone-cluster');
});

test('the Queues lab fits a phone, with a result’s charts', async ({ page }) => {
  await page.goto('/labs/queues');
  await expect(page.locator('.queue-svg')).toBeVisible();
  await loadLive(page);
  await fits(page, 'queues');
  await page.goto('/labs/queues?exp=queues.mm1&seed=1&points=4');
  const chart = page.locator('.chart-svg').first();
  await expect(chart).toBeVisible({ timeout: 120_000 });
  await fits(page, 'queues with a result');
  // The chart draws at its box's width: its text is not shrunk.
  const tick = await chart.evaluate((svg) => {
    const t = svg.querySelector('g[font-size] text');
    return t ? parseFloat(svg.querySelector('g[font-size]')!.getAttribute('font-size')!) * ((svg as SVGSVGElement).getScreenCTM()?.a ?? 0) : 0;
  });
  expect(tick).toBeGreaterThanOrEqual(10.5);
  await shot(page, 'phone-queues');
});

test('the Devices lab fits a phone on both tabs', async ({ page }) => {
  await page.goto('/labs/devices');
  await expect(page.locator('.flash-svg')).toBeVisible();
  await fits(page, 'devices flash');
  await page.getByRole('tab', { name: 'Disk' }).click();
  await expect(page.locator('#tabpanel-disk svg')).toBeVisible();
  await fits(page, 'devices disk');
  await shot(page, 'phone-devices');
});

test('the FAWN-DS lab fits a phone', async ({ page }) => {
  await page.goto('/labs/fawnds');
  await expect(page.getByTestId('fawnds-log')).toBeVisible();
  await loadLive(page);
  await expect(page.getByTestId('fawnds-result')).not.toContainText('Setting up', { timeout: 60_000 });
  await page.waitForTimeout(1500);
  await fits(page, 'fawnds');
  await shot(page, 'phone-fawnds');
});

test('the CONA lab fits a phone: lesson, live view and a result', async ({ page }) => {
  await page.goto('/labs/cona');
  await expect(page.getByTestId('cona-structure')).toBeVisible();
  await expect(page.locator('section.live-cona td[data-counter="levels"]')).toBeVisible({ timeout: 60_000 });
  await loadLive(page);
  await fits(page, 'cona');
  await page.goto('/labs/cona?exp=cona.trie-memory&seed=1');
  await expect(page.locator('.chart-svg').first()).toBeVisible({ timeout: 120_000 });
  await fits(page, 'cona with a result');
  await shot(page, 'phone-cona-result');
});

test('the FAWN-KV lab fits a phone and its ring answers a tap', async ({ page }) => {
  await page.goto('/labs/fawnkv');
  const ring = page.getByTestId('fawnkv-ring');
  await expect(ring).toBeVisible();
  await fits(page, 'fawnkv');
  const box = (await ring.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(PHONE.width);
  // Tap the ring's band at its top: 34 px of room for the front-end labels, then the band (viz/ringLayout.ts).
  const readout = page.locator('#fawnkv-ring-readout');
  await ring.evaluate((el) => el.scrollIntoView({ block: 'start' }));  // the ring's top on screen (the canvas is taller than it)
  const ringBox = (await ring.boundingBox())!;
  await page.touchscreen.tap(ringBox.x + ringBox.width / 2, ringBox.y + 62);
  await expect(readout).toContainText('Pinned');
  await expect(readout).toContainText(/^VID \d+\/\d+ \(node \d+/);
  await shot(page, 'phone-fawnkv');
});
