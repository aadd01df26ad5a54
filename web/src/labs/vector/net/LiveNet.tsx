/** The Vector I/O lab's live networked back-end (placeholder until its session lands). */
import type { LiveConfigRecord, LiveRequest } from '../../../app/labModule';

export interface LiveNetProps {
  request: LiveRequest | null;
  /** False while the tab is hidden: the view pauses. */
  active: boolean;
  onEdit?: (changed: LiveConfigRecord) => void;
}

export function LiveNet({ request, active }: LiveNetProps) {
  return <p className="muted" data-active={active}>The live networked back-end is not built yet{request ? '' : '.'}</p>;
}
