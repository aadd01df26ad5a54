/** The Queues lab: the live queue (LiveQueue) beside lessons/queues/. */
import { liveView, type LabModule } from '../../app/labModule';
import { lessonFiles } from '../../app/lessonFiles';
import type { LiveConfig } from './queueTypes';

export const queues: LabModule = {
  id: 'queues',
  title: 'Queues',
  tagline: 'the queueing primer every later lab leans on',
  blurb:
    'Watch requests wait for a server, see why latency explodes near full load, check Little’s law, ' +
    'pool servers, close the loop with thinking clients, and batch requests the way vector I/O does.',
  lessonFiles: lessonFiles('queues'),
  live: liveView<LiveConfig>(() => import('./LiveQueue').then((m) => m.LiveQueue), 'live queue'),
};
