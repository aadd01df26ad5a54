// Every FAWN-KV lesson scenario, loaded from its card at the default (auto) speed, shows its
// point: a join done, a failure detected and repaired, a leave done, a load running, a put and
// a get answered, an experiment's metrics. The "within seconds" claim is measured in frames,
// deterministically, by web/src/app/autoSpeed.test.ts (under 10 s at 60 fps); here the wall
// clock only bounds the wait (generously: CI machines are loaded), it is not the assertion.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { REPO, shot } from './helpers';

interface Sc { id: string; title: string; experiment?: string; live?: { load_rate_per_s?: number; script?: Array<{ op: string }> } }
const scenarios = JSON.parse(readFileSync(resolve(REPO, 'lessons/fawnkv/scenarios.json'), 'utf8')) as Sc[];

/** The membership scenarios' key event, and the slow-motion or fast-forward label on the way. */
const EVENTS: Record<string, [RegExp, RegExp]> = {
  'node-joins': [/node 20 joined/, /slow motion: join of node 20 in progress/],
  'node-fails': [/node 4 replaced/, /slow motion: repair after a failure in progress|fast-forward: waiting for the front-end/],
  'node-leaves': [/node 4 left/, /slow motion: leave of node 4 in progress/],
};

const WAIT = 30_000;

async function load(page: Page, s: Sc) {
  await page.goto('/labs/fawnkv');
  await page.locator(`aside[data-scenario="${s.id}"]`).getByRole('button').click();
}

for (const s of scenarios) {
  test(`scenario ${s.id} shows its point`, async ({ page }) => {
    await load(page, s);
        if (s.experiment) {
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await expect(page.locator('tr[data-metric]').first()).toBeVisible({ timeout: WAIT });
      return;
    }
    const cluster = page.getByTestId('fawnkv-cluster');
    const [event, label] = EVENTS[s.id] ?? [null, null];
    if (event && label) {
      await expect(page.getByTestId('fawnkv-auto')).toHaveText(label, { timeout: WAIT });
      if (s.id === 'node-joins') {
        await page.getByTestId('fawnkv-ring').scrollIntoViewIfNeeded();
        await shot(page, 'fawnkv-auto-slow-motion-join');
      }
      await expect(page.getByTestId('fawnkv-events')).toContainText(event, { timeout: WAIT });
    } else if (s.live?.load_rate_per_s) {
      await expect(cluster.locator('[data-counter="qps"]')).not.toHaveText('0', { timeout: WAIT });
    } else {
      const ops = (s.live?.script ?? []).map((o) => o.op);
      if (ops.includes('get')) await expect(cluster).toContainText(/[1-9][\d,]* gets/, { timeout: WAIT });
      if (ops.includes('put')) await expect(cluster).toContainText(/[1-9][\d,]* puts/, { timeout: WAIT });
    }
  });
}
