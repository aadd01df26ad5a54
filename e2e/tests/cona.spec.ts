// User flows through the CONA lab: open it from home, insert until a merge happens and see the
// levels grow, look a key up and follow its path down the levels (on the canvas and as a list),
// crash and recover, pick a cell from the keyboard, run cona.trie-memory and see the paper's
// bytes per key beside the lab's (and the same bytes as the native build), meet a bad
// parameter's named error, and fit a phone.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { downloadText, nativeRun, shot } from './helpers';

/** A text number as a value: "151k" → 151000, "2.94" → 2.94, "1,234" → 1234. */
function valueOf(text: string | null): number {
  const m = /-?[\d,]*\.?\d+[kMB]?/.exec(text ?? '');
  if (!m) return NaN;
  const suffix = { k: 1e3, M: 1e6, B: 1e9 }[m[0].slice(-1)] ?? 1;
  return Number(m[0].replace(/,/g, '').replace(/[kMB]$/, '')) * suffix;
}

const counter = (live: Locator, id: string) => live.locator(`td[data-counter="${id}"]`);

async function num(loc: Locator): Promise<number> {
  return valueOf(await loc.textContent());
}

async function openLive(page: Page): Promise<Locator> {
  await page.goto('/labs/cona');
  const live = page.locator('section.live-cona');
  await expect(live.getByTestId('cona-structure')).toBeVisible();
  await expect(counter(live, 'levels')).toBeVisible({ timeout: 60_000 });
  return live;
}

test('home → CONA: fill until a merge happens, then follow a lookup down the levels', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /CONA/ }).click();
  await expect(page).toHaveURL(/\/labs\/cona$/);
  const live = page.locator('section.live-cona');
  await expect(counter(live, 'levels')).toBeVisible({ timeout: 60_000 });
  expect(await num(counter(live, 'merges'))).toBe(0);

  // A key of our own, then enough new records to push it down into the levels.
  await live.getByRole('textbox', { name: 'key' }).fill('alice');
  await live.getByRole('textbox', { name: 'value (put)' }).fill('hello');
  await live.getByRole('button', { name: 'Put' }).click();
  await expect(live.getByTestId('cona-result')).toContainText('put “alice”');
  await live.getByRole('spinbutton', { name: 'new records' }).fill('3000');
  await live.getByRole('button', { name: 'Fill' }).click();
  await expect(live.getByTestId('cona-result')).toContainText('filled');
  await live.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => num(counter(live, 'merges')), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(() => num(counter(live, 'levels')), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await live.getByRole('button', { name: 'Pause' }).click();
  await expect(live.getByTestId('cona-cells').locator('tbody tr').first()).toBeVisible();
  await expect(live.getByTestId('cona-events')).toContainText('merge');

  // The lookup: the buffers first, then the cells level by level, and the one flash read.
  await live.getByRole('button', { name: 'Get' }).click();
  const lookup = live.getByTestId('cona-lookup');
  await expect(lookup).toContainText('get “alice”: found in the L', { timeout: 30_000 });
  const steps = lookup.locator('ol li');
  expect(await steps.count()).toBeGreaterThanOrEqual(3);
  await expect(steps.first()).toContainText('active buffer: binary search');
  await expect(steps.last()).toContainText('trie rank');
  await expect(steps.last()).toContainText('found');
  await expect(lookup).toContainText('1 flash read');
  await expect(live.getByTestId('cona-structure')).toHaveAttribute('aria-label', /the last lookup's path drawn: get “alice”: found/);
  // An absent key: the fragments skip the upper cells without a read.
  await live.getByRole('textbox', { name: 'key' }).fill('nobody-has-this-key');
  await live.getByRole('button', { name: 'Get' }).click();
  await expect(lookup).toContainText('not found');
  await expect(lookup).toContainText('skipped without a flash read');
  await live.getByTestId('cona-structure').scrollIntoViewIfNeeded();
  await shot(page, 'cona-lookup');

  const axe = await new AxeBuilder({ page }).include('section.live-cona').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('the structure from the keyboard: pick a cell for its memory, Space plays and pauses', async ({ page }) => {
  const live = await openLive(page);
  await live.getByRole('spinbutton', { name: 'new records' }).fill('1500');
  await live.getByRole('button', { name: 'Fill' }).click();
  await expect.poll(() => num(counter(live, 'levels')), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  const canvas = live.getByTestId('cona-structure');
  await canvas.focus();
  await page.keyboard.press('ArrowDown');
  await expect(live.getByTestId('cona-picked')).toContainText(/L1 slot 0/);
  await page.keyboard.press('ArrowDown');
  await expect(live.getByTestId('cona-picked')).toContainText(/L2 slot 0/);
  await expect(live.getByTestId('cona-picked')).toContainText(/trie|empty/);
  await page.keyboard.press(' ');
  await expect(live.getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.keyboard.press(' ');
  await expect(live.getByRole('button', { name: 'Play' })).toBeVisible();
});

test('crash and recover: the store reopens from its manifest', async ({ page }) => {
  const live = await openLive(page);
  await live.getByRole('spinbutton', { name: 'new records' }).fill('1000');
  await live.getByRole('button', { name: 'Fill' }).click();
  await expect(live.getByTestId('cona-result')).toContainText('filled');
  await live.getByRole('button', { name: 'Crash' }).click();
  await expect(live.getByRole('button', { name: 'Recover' })).toBeEnabled({ timeout: 30_000 });
  await expect(live.getByRole('button', { name: 'Put' })).toBeDisabled();
  await live.getByRole('button', { name: 'Recover' }).click();
  await expect(live.getByTestId('cona-result')).toContainText('recovered');
  await expect(live.getByRole('button', { name: 'Put' })).toBeEnabled({ timeout: 30_000 });
  await expect(live.getByTestId('cona-events')).toContainText('recover');
});

test('an operation clicked before the session exists waits for it, then runs: on opening and after a reset', async ({ page }) => {
  // The session worker's script is held, so the page is caught before its session exists.
  let release = () => {};
  const held = new Promise<void>((r) => { release = r; });
  await page.route(/\/assets\/worker-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/labs/cona');
  const live = page.locator('section.live-cona');
  const put = live.getByRole('button', { name: 'Put' });
  const result = live.getByTestId('cona-result');
  await expect(put).toBeDisabled();
  await expect(live.getByRole('button', { name: 'Fill' })).toBeDisabled();
  await expect(live.getByRole('button', { name: 'Step' })).toBeDisabled();
  await expect(result).toHaveText(/^Starting the session/);  // said in the aria-live result line
  // The fields stay usable; the click waits for the button rather than being dropped.
  await live.getByRole('textbox', { name: 'key' }).fill('early');
  const click = put.click();
  release();
  await click;
  await expect(result).toContainText('put “early”');
  await expect(counter(live, 'levels')).toBeVisible();
  // Keyboard users reach the op buttons once the session is there.
  await live.getByRole('textbox', { name: 'value (put)' }).focus();
  await page.keyboard.press('Tab');
  await expect(put).toBeFocused();

  // A reset starts a new session: a Get straight after it waits too, and finds the new, empty store.
  await live.getByRole('button', { name: 'Reset' }).click();
  await live.getByRole('button', { name: 'Get' }).click();
  await expect(result).toContainText('get “early”');
  await expect(result).toContainText('not found');
});

test('run cona.trie-memory: the lab’s bytes per key beside Tables 3.2 and 3.3', async ({ page }) => {
  await page.goto('/labs/cona');
  await page.getByLabel('Experiment', { exact: true }).selectOption('cona.trie-memory');
  await expect(page).toHaveURL(/exp=cona\.trie-memory/);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // [metric, the paper's value, the range the lab's must fall in]
  const rows: Array<[string, number, number, number]> = [['bpk_4', 2, 1.5, 3], ['bpk_16', 0.74, 0.5, 1.1], ['bpk_64', 0.45, 0.3, 0.7], ['bpk_mix', 0.678, 0.45, 1.1]];
  for (const [metric, paper, lo, hi] of rows) {
    const row = page.locator(`tr[data-metric="${metric}"]`);
    await expect(row).toBeVisible({ timeout: 120_000 });
    const lab = Number(await row.locator('td.num').first().getAttribute('data-value'));
    expect(lab, `${metric} = ${lab}`).toBeGreaterThanOrEqual(lo);
    expect(lab, `${metric} = ${lab}`).toBeLessThanOrEqual(hi);
    expect(valueOf(await row.locator('td.num').nth(1).textContent()), `${metric}'s anchor`).toBeCloseTo(paper, 2);
  }
  await page.locator('tr[data-metric="bpk_mix"]').scrollIntoViewIfNeeded();
  await shot(page, 'cona-trie-memory');

  const dl = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const json = await downloadText(await dl);
  const native = nativeRun('cona.trie-memory', {}, '1');
  if (native !== null) expect(json).toBe(native);
});

test('no axe violations on the whole page with a result, and the focusable views show their whole focus ring', async ({ page }) => {
  await page.goto('/labs/cona?exp=cona.trie-memory');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('tr[data-metric]').first()).toBeVisible({ timeout: 120_000 });
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
  // The structure canvas, the events list and the tables are focusable: no ancestor that hides overflow cuts their ring.
  for (const sel of ['[data-testid="cona-structure"]', '[data-testid="cona-events"]', '.live-cona .table-wrap']) {
    const el = page.locator(sel).first();
    if (!(await el.isVisible())) continue;
    await el.focus();
    await page.keyboard.press('Shift');
    const cut = await el.evaluate((e) => {
      const cs = getComputedStyle(e);
      const grow = parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset);
      const r = e.getBoundingClientRect();
      for (let a = e.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const b = a.getBoundingClientRect();
        if (r.left - grow < b.left - 0.5 || r.right + grow > b.right + 0.5 || r.top - grow < b.top - 0.5 || r.bottom + grow > b.bottom + 0.5) return a.className || a.tagName;
      }
      return cs.outlineStyle === 'none' ? 'no focus ring' : null;
    });
    expect(cut, `${sel}'s focus ring`).toBeNull();
  }
});

test('a bad parameter gets a named error: in a live link and in the live view', async ({ page }) => {
  await page.goto('/labs/cona?live.buffer_kb=4096');
  await expect(page.locator('.lab-problems')).toContainText('live.buffer_kb=4096 in the link must be an integer in [8, 1024]');
  const live = await openLive(page);
  await live.getByTestId('cona-setup-summary').click();
  await live.getByRole('spinbutton', { name: /buffer B/ }).fill('2000');
  await expect(live.getByTestId('cona-config-error')).toContainText('buffer_kb');
  await live.getByRole('spinbutton', { name: /buffer B/ }).fill('64');
  await expect(live.getByTestId('cona-config-error')).toHaveCount(0);
});

test('a lesson scenario loads into the live store: alice traced to her one flash read', async ({ page }) => {
  await page.goto('/labs/cona');
  await expect(page.getByRole('alert').filter({ hasText: 'This lesson has problems' })).toHaveCount(0);
  await page.locator('aside[data-scenario="trace-a-lookup"]').getByRole('button', { name: /live CONA store/ }).click();
  const live = page.locator('section.live-cona');
  await expect(live.getByTestId('cona-setup-summary')).toContainText('20k records preloaded');
  const lookup = live.getByTestId('cona-lookup');
  await expect(lookup).toContainText('get “alice”: found in the L', { timeout: 60_000 });
  await expect(lookup).toContainText('1 flash read');
  await live.getByTestId('cona-structure').scrollIntoViewIfNeeded();
  await shot(page, 'cona-scenario-trace');
  // The scenario plays on: once merges replace the cells the lookup passed, its path fades and the panel says so.
  await expect(live.getByRole('button', { name: 'Pause' })).toBeVisible();
  await live.getByLabel('speed').selectOption({ label: '1 s per second' });
  await expect(live.getByTestId('cona-lookup-stale')).toBeVisible({ timeout: 60_000 });
  // A Get of one's own stops the clock, so that path stays.
  await live.getByRole('button', { name: 'Get' }).click();
  await expect(live.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(live.getByTestId('cona-lookup-stale')).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the CONA lab fits a phone', async ({ page }) => {
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    const live = await openLive(page);
    await live.getByRole('spinbutton', { name: 'new records' }).fill('3000');
    await live.getByRole('button', { name: 'Fill' }).click();
    await live.getByRole('button', { name: 'Get' }).click();
    await expect(live.getByTestId('cona-lookup').locator('ol li').first()).toBeVisible({ timeout: 30_000 });
    await live.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => num(counter(live, 'levels')), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    expect(await width()).toBeLessThanOrEqual(390);
    await live.getByTestId('cona-structure').scrollIntoViewIfNeeded();
    await shot(page, 'phone-cona');
    await live.getByRole('button', { name: 'Pause' }).click();
  });
});
