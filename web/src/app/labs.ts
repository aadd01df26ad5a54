/**
 * The labs the home page lists, each with its lesson folder (lessons/<id>/, bundled at build
 * time) and the live view its page shows. Later labs add an entry here.
 */
import { parseLesson, type Lesson } from '../model/lessons';
import devicesExercises from '@lessons/devices/exercises.json';
import devicesLesson from '@lessons/devices/lesson.md?raw';
import devicesScenarios from '@lessons/devices/scenarios.json';
import queuesExercises from '@lessons/queues/exercises.json';
import queuesLesson from '@lessons/queues/lesson.md?raw';
import queuesScenarios from '@lessons/queues/scenarios.json';
import fawndsScenarios from '@lessons/fawnds/scenarios.json';

// A lesson's files are optional until they are written (the globs match nothing then): without
// its text a lab offers its scenarios, if any, under a heading of its own.
const fawndsText = import.meta.glob<string>('@lessons/fawnds/lesson.md', { eager: true, query: '?raw', import: 'default' });
const fawndsExercises = import.meta.glob<unknown>('@lessons/fawnds/exercises.json', { eager: true, import: 'default' });
const fawnkvText = import.meta.glob<string>('@lessons/fawnkv/lesson.md', { eager: true, query: '?raw', import: 'default' });
const fawnkvExercises = import.meta.glob<unknown>('@lessons/fawnkv/exercises.json', { eager: true, import: 'default' });
const fawnkvScenarios = import.meta.glob<unknown>('@lessons/fawnkv/scenarios.json', { eager: true, import: 'default' });

/** The lesson text of a lab whose lesson.md is not written yet: a heading and its scenarios. */
function interimLesson(title: string, scenarios: unknown): string {
  const ids = Array.isArray(scenarios) ? (scenarios as Array<{ id?: unknown }>).map((s) => String(s.id)) : [];
  const intro = ids.length > 0 ? 'Load a scenario into the live view.' : 'The lesson is being written; the live view below runs meanwhile.';
  return `# ${title}\n\n${intro}\n\n${ids.map((id) => `{{scenario ${id}}}`).join('\n\n')}\n`;
}

export interface LabInfo {
  id: string;
  title: string;
  tagline: string;
  /** What the student will see and do, for the home page. */
  blurb: string;
  lesson: Lesson;
  lessonErrors: string[];
  /** The live view beside the lesson: the queue, the flash device and disk, a FAWN-DS node, a FAWN-KV cluster, or none. */
  live: 'queue' | 'devices' | 'fawnds' | 'fawnkv' | null;
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
    Object.values(fawndsText)[0] ?? interimLesson('FAWN-DS', fawndsScenarios),
    fawndsScenarios,
    Object.values(fawndsExercises)[0] ?? [],
    'fawnds',
  ),
  lab(
    'fawnkv',
    'FAWN-KV',
    'a cluster of wimpy nodes: consistent hashing, chain replication, joins and failures',
    'Spread keys over a ring of virtual IDs, follow a put down its replication chain and a get to the tail, add, remove and ' +
      'fail nodes and watch ranges pre-copy and chains re-form, skew the load and cache at the front-end, and check every ' +
      'answer for linearizability — with the cluster’s queries per joule beside it.',
    Object.values(fawnkvText)[0] ?? interimLesson('FAWN-KV', Object.values(fawnkvScenarios)[0] ?? []),
    Object.values(fawnkvScenarios)[0] ?? [],
    Object.values(fawnkvExercises)[0] ?? [],
    'fawnkv',
  ),
];

export function findLab(id: string): LabInfo | undefined {
  return LABS.find((l) => l.id === id);
}
