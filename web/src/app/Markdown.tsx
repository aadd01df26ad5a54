/** Renders the project's own Markdown (lesson text). Not for untrusted input. */
import { marked } from 'marked';
import { useMemo } from 'react';

marked.use({ gfm: true });

export function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => marked.parse(text, { async: false }), [text]);
  return <div className={className ?? 'md'} dangerouslySetInnerHTML={{ __html: html }} />;
}
