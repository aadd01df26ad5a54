// The Cluster page. On the plain lab server (the suite's webServer) it says how to start a
// cluster. Against a REAL cluster — `fawnlab cluster` with three back-end processes on free
// ports, started here, which needs the core built with KvHostNode — it shows the ring, runs the
// load generator, kills a node (SIGKILL), sees the heartbeats mark it failed and the load go
// on, restarts it and sees it rejoin; on a phone the page fits and a tap on the ring pins a VID.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startCluster, stopCluster, type ClusterProc } from '../../server/src/cluster/clusterproc.js';
import { shot } from './helpers';

test('on the plain lab server the page explains how to start a cluster', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'The cluster page' }).click();
  await expect(page).toHaveURL(/\/cluster$/);
  await expect(page.getByRole('heading', { name: 'Real cluster', level: 1 })).toBeVisible();
  const none = page.getByTestId('cluster-none');
  await expect(none).toContainText('npm run cluster -- --nodes 4 --replicas 3');
  await expect(page.getByTestId('cluster-conn')).toContainText('No cluster is running here');
  await shot(page, 'cluster-none');
});

async function nodeState(page: Page, id: number) {
  return (await page.getByTestId(`node-${id}-state`).textContent())?.trim();
}

/** Operations per second the load generator completed in its last interval. */
async function completedPerS(page: Page): Promise<number> {
  const text = (await page.getByTestId('load-stats').textContent()) ?? '';
  const m = /offered \/ completed\s*([\d,.]+) \/ ([\d,.]+) ops\/s/.exec(text);
  return m ? Number(m[2]!.replace(/,/g, '')) : 0;
}

test.describe('against a real cluster', () => {
  let cluster: (ClusterProc & { url: string }) | null = null;
  let dataDir = '';

  test.beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fawnlab-e2e-cluster-'));
    const c = await startCluster(['--nodes', '3', '--replicas', '3'], dataDir);
    cluster = { ...c, url: `http://${c.http}/` };
  });

  test.afterAll(async () => {
    if (cluster) await stopCluster(cluster.proc);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('load keeps flowing while a killed node fails and rejoins', async ({ page }) => {
    const c = cluster!;
    await page.goto(new URL('/cluster', c.url).toString());
    await expect(page.getByTestId('cluster-conn')).toHaveText('Connected: live.');
    const rows = page.getByTestId('cluster-nodes').locator('tbody tr');
    await expect(rows).toHaveCount(3);
    for (const id of [0, 1, 2]) await expect.poll(() => nodeState(page, id), { timeout: 30_000 }).toBe('up');
    await expect(page.getByTestId('cluster-ring')).toBeVisible();

    // The ring takes the keyboard: focus it and step to a VID; the readout names its chains.
    await page.getByTestId('cluster-ring').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('#cluster-ring-readout')).toContainText(/VID \d+\/\d+ \(node \d+, 1 of 6 in ring order\) owns/);

    await page.getByLabel(/^Rate/).fill('300');
    await page.getByLabel(/^Put fraction/).fill('0.3');
    await page.getByTestId('load-start').click();
    await expect(page.getByTestId('load-msg')).toContainText(/Load started \(seed \d+\)/);
    await expect.poll(() => completedPerS(page), { timeout: 20_000 }).toBeGreaterThan(100);
    // Each back-end's own latency: a number of ms once it has answered requests.
    await expect.poll(async () => Number(await page.getByTestId('node-0-p50').textContent()), { timeout: 10_000 }).toBeGreaterThan(0);
    await shot(page, 'cluster-live');

    // Kill node 1: its process dies at once; the heartbeats mark it failed within a few periods.
    await page.getByRole('button', { name: 'Kill node 1' }).click();
    await expect(page.getByTestId('node-1-process')).toHaveText('killed', { timeout: 10_000 });
    await expect.poll(() => nodeState(page, 1), { timeout: 30_000 }).toBe('failed');
    await expect(page.getByTestId('cluster-events')).toContainText(/1/);
    // The load goes on over the repaired chains.
    await expect.poll(() => completedPerS(page), { timeout: 30_000 }).toBeGreaterThan(100);
    await shot(page, 'cluster-killed');

    await page.getByRole('button', { name: 'Restart node 1' }).click();
    await expect(page.getByTestId('node-1-process')).toHaveText('running', { timeout: 10_000 });
    await expect.poll(() => nodeState(page, 1), { timeout: 60_000 }).toBe('up');
    await expect.poll(() => completedPerS(page), { timeout: 30_000 }).toBeGreaterThan(100);

    await page.getByTestId('load-stop').click();
    await expect(page.getByTestId('load-stats')).toContainText('stopped');
    await shot(page, 'cluster-rejoined');
  });

  test('on a phone the page fits and the ring answers a tap', async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    await page.goto(new URL('/cluster', cluster!.url).toString());
    const ring = page.getByTestId('cluster-ring');
    await expect(ring).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Tap the ring's band at its top (34 px of room for the front-end labels, then the band: viz/ringLayout.ts).
    await ring.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const box = (await ring.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + 62);
    await expect(page.locator('#cluster-ring-readout')).toContainText(/^VID \d+\/\d+ \(node \d+.*Pinned/);
    await shot(page, 'phone-cluster-live');
    await ctx.close();
  });
});
