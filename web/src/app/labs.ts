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
import fawndsScenarios from '@lessons/fawnds/scenarios.json';

// The FAWN-DS lesson's text and exercises are optional until they are written: without them
// the lab offers its scenarios under a heading of its own.
const fawndsText = import.meta.glob<string>('@lessons/fawnds/lesson.md', { eager: true, query: '?raw', import: 'default' });
const fawndsExercises = import.meta.glob<unknown>('@lessons/fawnds/exercises.json', { eager: true, import: 'default' });
const fawndsLesson =
  Object.values(fawndsText)[0] ??
  `# FAWN-DS\n\nLoad a scenario into the live node.\n\n${(fawndsScenarios as Array<{ id: string }>).map((s) => `{{scenario ${s.id}}}`).join('\n\n')}\n`;

export interface LabInfo {
  id: string;
  title: string;
  tagline: string;
  /** What the student will see and do, for the home page. */
  blurb: string;
  lesson: Lesson;
  lessonErrors: string[];
  /** The live view beside the lesson: the queue, the flash device and disk, or none. */
  live: 'queue' | 'devices' | 'fawnds' | null;
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
  lab(
    'fawnds',
    'FAWN-DS',
    'the log-structured hash store on emulated flash',
    'Put and get keys and watch each land in the append-only log and the 6-byte-per-bucket hash index, follow a lookup’s ' +
      'probes and the flash reads they cost, delete, split, merge and compact stores under load, crash the node and watch ' +
      'recovery rebuild the index — then reproduce FAWN’s single-node results on the emulated CompactFlash card.',
    fawndsLesson,
    fawndsScenarios,
    Object.values(fawndsExercises)[0] ?? [],
    'fawnds',
  ),
];

export function findLab(id: string): LabInfo | undefined {
  return LABS.find((l) => l.id === id);
}
