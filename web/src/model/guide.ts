/**
 * The guided tour through a lesson: one step per scenario, in the order the lesson text places
 * them (docs/lessons.md, "Guided tour"). A step's text is the lesson's section that introduces
 * its scenario: from the last heading before the scenario card down to the card (exercises
 * left out). Two cards in one section share that section's text. Pure functions.
 */
import type { Lesson, LessonScenario } from './lessons';

export interface GuideStep {
  /** 1-based, as the page and the URL (`?step=`) count. */
  number: number;
  scenario: LessonScenario;
  /** The section's heading text, without its #s ('' when the scenario comes before any heading). */
  heading: string;
  /** The section's Markdown below its heading, down to the card. */
  text: string;
}

const HEADING = /^(#{1,6})\s+(.*)$/;

/** The lesson's tour: each scenario the text places, first placement only, in text order. */
export function guideSteps(lesson: Lesson): GuideStep[] {
  const steps: GuideStep[] = [];
  const seen = new Set<string>();
  let heading = '';
  let lines: string[] = [];
  let fenced = false;
  for (const b of lesson.blocks) {
    if (b.kind === 'markdown') {
      for (const line of b.text.split('\n')) {
        if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
        const m = fenced ? null : HEADING.exec(line);
        if (m) {
          heading = m[2]!.trim();
          lines = [];
        } else {
          lines.push(line);
        }
      }
    } else {
      if (b.kind === 'scenario' && !seen.has(b.scenario.id)) {
        seen.add(b.scenario.id);
        steps.push({ number: steps.length + 1, scenario: b.scenario, heading, text: lines.join('\n').trim() });
      }
      lines.push(''); // the text after a card or an exercise starts a new paragraph
    }
  }
  return steps;
}

/**
 * The step a URL's `step` names, clamped to the tour; `error` says when it was out of range
 * (and the tour has no steps at all).
 */
export function stepAt(steps: GuideStep[], n: number): { step: GuideStep | null; error: string | null } {
  if (steps.length === 0) return { step: null, error: 'this lesson has no scenarios to step through' };
  if (n < 1 || n > steps.length) {
    const clamped = Math.min(steps.length, Math.max(1, n));
    return { step: steps[clamped - 1]!, error: `step ${n} is not in this tour (it has ${steps.length} steps); showing step ${clamped}` };
  }
  return { step: steps[n - 1]!, error: null };
}

/** The step number for a scenario id (null when the tour does not visit it). */
export function stepOf(steps: GuideStep[], scenarioId: string | null): number | null {
  return steps.find((s) => s.scenario.id === scenarioId)?.number ?? null;
}
