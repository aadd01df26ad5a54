/**
 * Every lesson folder's files (lessons/<id>/{lesson.md, scenarios.json, exercises.json}),
 * bundled at build time and keyed by folder, so a new lab's lesson needs no import here. A
 * file not written yet is null.
 */
import type { LessonFiles } from './labModule';

const texts = import.meta.glob<string>('@lessons/*/lesson.md', { eager: true, query: '?raw', import: 'default' });
const scenarios = import.meta.glob<unknown>('@lessons/*/scenarios.json', { eager: true, import: 'default' });
const exercises = import.meta.glob<unknown>('@lessons/*/exercises.json', { eager: true, import: 'default' });

/** The file of lessons/<folder>/<name> among a glob's matches, or null. */
function fileOf<T>(files: Record<string, T>, folder: string, name: string): T | null {
  const hit = Object.entries(files).find(([path]) => path.endsWith(`/${folder}/${name}`));
  return hit ? hit[1] : null;
}

/** The files of lessons/<folder>/. */
export function lessonFiles(folder: string): LessonFiles {
  return {
    markdown: fileOf(texts, folder, 'lesson.md'),
    scenarios: fileOf(scenarios, folder, 'scenarios.json'),
    exercises: fileOf(exercises, folder, 'exercises.json'),
  };
}
