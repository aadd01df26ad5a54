/** The Vector I/O lab's live block layer (placeholder until its session lands). */
import type { LiveConfigRecord, LiveRequest } from '../../../app/labModule';

export interface LiveBlockProps {
  request: LiveRequest | null;
  /** False while the tab is hidden: the view pauses. */
  active: boolean;
  onEdit?: (changed: LiveConfigRecord) => void;
}

export function LiveBlock({ request, active }: LiveBlockProps) {
  return <p className="muted" data-active={active}>The live block layer is not built yet{request ? '' : '.'}</p>;
}
