/**
 * The labs the home page lists and the router opens: each module of web/src/labs (its
 * registry, labs/index.ts) with its lesson parsed and checked. Nothing here names a lab.
 */
import { LAB_MODULES } from '../labs';
import { parseLesson, type Lesson } from '../model/lessons';
import type { LabModule } from './labModule';

/** The lesson text of a lab whose lesson.md is not written yet: a heading and its scenarios. */
function interimLesson(title: string, scenarios: unknown): string {
  const ids = Array.isArray(scenarios) ? scenarios.map((s: unknown) => String(typeof s === 'object' && s !== null && 'id' in s ? s.id : undefined)) : [];
  const intro = ids.length > 0 ? 'Load a scenario into the live view.' : 'The lesson is being written; the live view below runs meanwhile.';
  return `# ${title}\n\n${intro}\n\n${ids.map((id) => `{{scenario ${id}}}`).join('\n\n')}\n`;
}

export interface LabInfo extends LabModule {
  lesson: Lesson;
  lessonErrors: string[];
}

/** A lab module with its lesson parsed (a lesson folder's missing files read as empty; a missing lesson.md as the interim lesson). */
export function openLab(m: LabModule): LabInfo {
  const { markdown, scenarios, exercises } = m.lessonFiles;
  const { lesson, errors } = parseLesson(m.id, markdown ?? interimLesson(m.title, scenarios ?? []), scenarios ?? [], exercises ?? []);
  return { ...m, lesson, lessonErrors: errors };
}

export const LABS: LabInfo[] = LAB_MODULES.map(openLab);

export function findLab(id: string): LabInfo | undefined {
  return LABS.find((l) => l.id === id);
}
