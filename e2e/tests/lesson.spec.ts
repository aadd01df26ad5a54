// The Queues lesson in the page: a scenario loads into the lab, an exercise is checked
// against the model, a wrong answer gets a hint (not the model's value), and a student seed
// gives the student a variant with its own numbers, checked by the model.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO, shot } from './helpers';

interface Ex { id: string; kind: string; solution: number | string; hint: string; variants?: object; options?: Array<{ label: string; value: number }> }
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

test('an exercise is checked against the model; a wrong answer gets the hint, not the value', async ({ page }) => {
  // Student 0 gets the lesson's own numbers: S = 10 µs, so R = 50 µs.
  const ex = exercises.find((x) => x.id === 'predict-rho-08')!;
  const answer = 50;
  await page.goto('/labs/queues?student=0');
  const card = page.locator(`section[data-exercise="${ex.id}"]`);
  await card.scrollIntoViewIfNeeded();
  await card.getByRole('textbox').fill(String(answer));
  await card.getByRole('button', { name: 'Check against the model' }).click();
  await expect(card.locator('.verdict')).toContainText('✓ Correct', { timeout: 120_000 });
  await expect(card.locator('.verdict')).toContainText('The model measured');
  await shot(page, 'exercise');
  // A wrong answer is told so, with the hint and no number from the model.
  await card.getByRole('textbox').fill(String(answer * 3 + 100));
  await card.getByRole('button', { name: 'Check against the model' }).click();
  await expect(card.locator('.verdict')).toContainText('✗ Not quite', { timeout: 120_000 });
  await expect(card.locator('.verdict')).toContainText('too high');
  await expect(card.locator('.hint-text')).toContainText(ex.hint.slice(0, 40));
  await expect(card.locator('.verdict')).not.toContainText('The model measured');
});

test('a seeded student gets a variant with its own numbers, checked by the model', async ({ page }) => {
  // predict-rho-08 varies the service time S; R = S / (1 − 0.8) at ρ = 0.8.
  const ex = exercises.find((x) => x.id === 'predict-rho-08')!;
  expect(ex.variants).toBeDefined();
  const prompts = new Set<string>();
  for (const student of [0, 1, 2, 3, 4, 5]) {
    await page.goto(`/labs/queues?student=${student}`);
    prompts.add(await page.locator(`section[data-exercise="${ex.id}"] .md`).first().innerText());
  }
  expect(prompts.size).toBeGreaterThan(1);
  let student = 1;
  let s = 10;
  for (; student < 50; student++) {
    await page.goto(`/labs/queues?student=${student}`);
    const text = await page.locator(`section[data-exercise="${ex.id}"] .md`).first().innerText();
    s = Number(/S = ([\d.]+) µs/.exec(text)![1]);
    if (s !== 10) break;
  }
  const card = page.locator(`section[data-exercise="${ex.id}"]`);
  await expect(card.locator('.variant-line')).toContainText(`student ${student}`);
  await card.scrollIntoViewIfNeeded();
  // The lesson's own answer (S = 10 µs) is wrong for this student...
  await card.getByRole('textbox').fill('50');
  await card.getByRole('button', { name: 'Check against the model' }).click();
  await expect(card.locator('.verdict')).toContainText('✗ Not quite', { timeout: 120_000 });
  await expect(card.locator('.hint-text')).toBeVisible();
  await shot(page, 'exercise-hint');
  await card.screenshot({ path: resolve(REPO, 'e2e/screenshots/exercise-hint-card.png') });
  // ...and the variant's own answer is right.
  await card.getByRole('textbox').fill(String(s / 0.2));
  await card.getByRole('button', { name: 'Check against the model' }).click();
  await expect(card.locator('.verdict')).toContainText('✓ Correct', { timeout: 120_000 });
  await shot(page, 'exercise-variant');
  await card.screenshot({ path: resolve(REPO, 'e2e/screenshots/exercise-variant-card.png') });
});
