// Accessibility: axe-core finds no violation on the home page, on every lab page (with its
// live view and a finished experiment result) and on /cluster without a cluster.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

const LABS = ['queues', 'devices', 'fawnds', 'fawnkv', 'vector', 'cona', 'stores', 'srcmap'];

async function violations(page: Page) {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('the home page has no axe violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

for (const lab of LABS) {
  test(`the ${lab} lab has no axe violations, with a result on the page`, async ({ page }) => {
    await page.goto(`/labs/${lab}`);
    await expect(page.locator('section.live, .panel').first()).toBeVisible();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('tr[data-metric]').first()).toBeVisible({ timeout: 170_000 });
    expect(await violations(page)).toEqual([]);
  });
}

/**
 * Every focusable canvas or SVG whose focus ring an ancestor that hides overflow would cut:
 * the ring (outline width + offset around the box) must lie inside each such ancestor.
 */
async function clippedFocusRings(page: Page): Promise<string[]> {
  const targets = page.locator('canvas[tabindex="0"], svg[tabindex="0"]');
  const out: string[] = [];
  for (let i = 0; i < (await targets.count()); i++) {
    const t = targets.nth(i);
    if (!(await t.isVisible())) continue;
    await t.focus();
    await page.keyboard.press('Shift');  // keyboard modality, so :focus-visible applies
    const why = await t.evaluate((el) => {
      const cs = getComputedStyle(el);
      if (cs.outlineStyle === 'none') return `${el.getAttribute('data-testid') ?? el.tagName}: no focus ring`;
      const grow = parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset);
      const r = el.getBoundingClientRect();
      for (let a = el.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const b = a.getBoundingClientRect();
        if (r.left - grow < b.left - 0.5 || r.right + grow > b.right + 0.5 || r.top - grow < b.top - 0.5 || r.bottom + grow > b.bottom + 0.5) {
          return `${el.getAttribute('data-testid') ?? el.tagName}: its focus ring is cut by ${a.className || a.tagName}`;
        }
      }
      return null;
    });
    if (why) out.push(why);
  }
  return out;
}

for (const lab of LABS) {
  test(`the ${lab} lab's focusable views show their whole focus ring`, async ({ page }) => {
    await page.goto(`/labs/${lab}`);
    await expect(page.locator('canvas[tabindex="0"], svg[tabindex="0"]').first()).toBeVisible({ timeout: 30_000 });
    expect(await clippedFocusRings(page)).toEqual([]);
  });
}

test('/cluster without a cluster has no axe violations', async ({ page }) => {
  await page.goto('/cluster');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});
