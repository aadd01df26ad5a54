/** The FAWN-DS lab: a live FAWN-DS node (LiveFawnds) beside lessons/fawnds/. */
import { liveView, type LabModule } from '../../app/labModule';
import { lessonFiles } from '../../app/lessonFiles';
import type { FawndsLiveConfig } from './fawndsTypes';

export const fawnds: LabModule = {
  id: 'fawnds',
  title: 'FAWN-DS',
  tagline: 'the log-structured hash store on emulated flash',
  blurb:
    'Put and get keys and watch each land in the append-only log and the 6-byte-per-bucket hash index, follow a lookup’s ' +
    'probes and the flash reads they cost, delete, split, merge and compact stores under load, crash the node and watch ' +
    'recovery rebuild the index — then reproduce FAWN’s single-node results on the emulated CompactFlash card.',
  lessonFiles: lessonFiles('fawnds'),
  live: liveView<FawndsLiveConfig>(() => import('./LiveFawnds').then((m) => m.LiveFawnds), 'live FAWN-DS node'),
};
