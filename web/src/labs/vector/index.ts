/** The Vector I/O lab: one FAWN-KV back-end on NVM, multiget × multiread (LiveVector), beside lessons/vector/. */
import { liveView, type LabModule } from '../../app/labModule';
import { lessonFiles } from '../../app/lessonFiles';
import type { LiveConfigRecord } from '../../app/labModule';

export const vector: LabModule = {
  id: 'vector',
  title: 'Vector I/O',
  tagline: 'multiget × multiread: one back-end from 112K to 1.6M lookups per second',
  blurb:
    'Follow one FAWN-KV back-end on an NVM device from the network card to the DMA channels, see where every ' +
    'core-microsecond goes, then widen the network vector (multiget) and the storage vector (multiread) and ' +
    'watch throughput climb fourteenfold. The Linux block layer of a wimpy Atom, phase by phase, shows why.',
  lessonFiles: lessonFiles('vector'),
  live: liveView<LiveConfigRecord>(
    () => import('./LiveVector').then((m) => m.LiveVector),
    (config) => (config.view === 'block' ? 'live block layer' : 'live back-end'),
  ),
};
