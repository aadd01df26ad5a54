/** The browser tab's title per page: "<page> · fawnlab" (a teacher's tabs and history say which lab is which). */
import { useEffect } from 'react';

export function pageTitle(page: string | null): string {
  return page ? `${page} · fawnlab` : 'fawnlab — a lab for energy-efficient storage systems';
}

/** Sets document.title while the calling page shows. */
export function usePageTitle(page: string | null): void {
  useEffect(() => {
    document.title = pageTitle(page);
  }, [page]);
}
