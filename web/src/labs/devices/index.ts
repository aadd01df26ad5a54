/** The Devices lab: the flash device and the disk, one tab each (LiveDevices), beside lessons/devices/. */
import { liveView, type LabModule } from '../../app/labModule';
import { lessonFiles } from '../../app/lessonFiles';
import type { DevicesLiveConfig } from './deviceTypes';

export const devices: LabModule = {
  id: 'devices',
  title: 'Devices',
  tagline: 'flash behind its FTL, spinning disks and NVM: the devices every later lab runs on',
  blurb:
    'Watch an SSD’s flash translation layer scatter stale pages and its garbage collector copy and erase, ' +
    'see why random writes on a CF card are slow, follow a disk head as it seeks and waits for the sector, ' +
    'spin a disk down to save watts, and reproduce FAWN’s Table 1 on the emulated CF card.',
  lessonFiles: lessonFiles('devices'),
  live: liveView<DevicesLiveConfig>(
    () => import('./LiveDevices').then((m) => m.LiveDevices),
    (config) => (config.view === 'disk' ? 'live disk view' : 'live flash view'),
  ),
};
