// The Queues lesson in the page: a scenario loads into the lab, an exercise is checked
// against the model.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO, shot } from './helpers';

interface Ex { id: string; kind: string; solution: number; options?: Array<{ label: string; value: number }> }
interface Sc { id: string; experiment?: string; seed: number }
const exercises = JSON.parse(readFileSync(resolve(REPO, 'lessons/queues/exercises.json'), 'utf8')) as Ex[];
const scenarios = JSON.parse(readFileSync(resolve(REPO, 'lessons/queues/scenarios.json'), 'utf8')) as Sc[];

test('a lesson scenario loads into the experiment panel and the URL', async ({ page }) => {
  const s = scenarios.find((x) => x.experiment)!;
  await page.goto('/labs/queues');
  await page.locator(`aside[data-scenario="${s.id}"]`).getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`exp=${s.experiment!.replace('.', '\\.')}.*seed=${s.seed}`));
  await expect(page.getByLabel('Experiment', { exact: true })).toHaveValue(s.experiment!);
});

test('an exercise is checked against the model', async ({ page }) => {
  const ex = exercises.find((x) => x.kind === 'numeric')!;
  await page.goto('/labs/queues');
  const card = page.locator(`section[data-exercise="${ex.id}"]`);
  await card.scrollIntoViewIfNeeded();
  await card.getByRole('textbox').fill(String(ex.solution));
  await card.getByRole('button', { name: 'Check against the model' }).click();
  await expect(card.locator('.verdict')).toContainText('✓ Correct', { timeout: 120_000 });
  await expect(card.locator('.verdict')).toContainText('The model measured');
  await shot(page, 'exercise');
  // A wrong answer is told so.
  await card.getByRole('textbox').fill(String(ex.solution * 3 + 100));
  await card.getByRole('button', { name: 'Check against the model' }).click();
  await expect(card.locator('.verdict')).toContainText('✗ Not quite', { timeout: 120_000 });
});
