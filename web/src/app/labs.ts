/**
 * The labs the home page lists, each with its lesson folder (lessons/<id>/, bundled at build
 * time) and the live view its page shows. Later labs (FAWN-DS, FAWN-KV, ...) add an entry
 * here.
 */
import { parseLesson, type Lesson } from '../model/lessons';
import devicesExercises from '@lessons/devices/exercises.json';
import devicesLesson from '@lessons/devices/lesson.md?raw';
import devicesScenarios from '@lessons/devices/scenarios.json';
import queuesExercises from '@lessons/queues/exercises.json';
import queuesLesson from '@lessons/queues/lesson.md?raw';
import queuesScenarios from '@lessons/queues/scenarios.json';

export interface LabInfo {
  id: string;
  title: string;
  tagline: string;
  /** What the student will see and do, for the home page. */
  blurb: string;
  lesson: Lesson;
  lessonErrors: string[];
  /** The live view beside the lesson: the queue, the flash device and disk, or none. */
  live: 'queue' | 'devices' | null;
}

function lab(id: string, title: string, tagline: string, blurb: string, md: string, sc: unknown, ex: unknown, live: LabInfo['live']): LabInfo {
  const { lesson, errors } = parseLesson(id, md, sc, ex);
  return { id, title, tagline, blurb, lesson, lessonErrors: errors, live };
}

export const LABS: LabInfo[] = [
  lab(
    'queues',
    'Queues',
    'the queueing primer every later lab leans on',
    'Watch requests wait for a server, see why latency explodes near full load, check Little’s law, ' +
      'pool servers, close the loop with thinking clients, and batch requests the way vector I/O does.',
    queuesLesson,
    queuesScenarios,
    queuesExercises,
    'queue',
  ),
  lab(
    'devices',
    'Devices',
    'flash behind its FTL, spinning disks and NVM: the devices every later lab runs on',
    'Watch an SSD’s flash translation layer scatter stale pages and its garbage collector copy and erase, ' +
      'see why random writes on a CF card are slow, follow a disk head as it seeks and waits for the sector, ' +
      'spin a disk down to save watts, and reproduce FAWN’s Table 1 on the emulated CF card.',
    devicesLesson,
    devicesScenarios,
    devicesExercises,
    'devices',
  ),
];

export function findLab(id: string): LabInfo | undefined {
  return LABS.find((l) => l.id === id);
}
