/** Renders the project's own Markdown (lesson text). Not for untrusted input. */
import { marked, type Token } from 'marked';
import { useMemo } from 'react';

marked.use({ gfm: true });

export function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => marked.parse(text, { async: false }), [text]);
  return <div className={className ?? 'md'} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Every link target the Markdown renders (inline links, reference links, autolinks). */
export function linksIn(text: string): string[] {
  const out: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'link') out.push((t as { href: string }).href);
      const nested = t as { tokens?: Token[]; items?: Token[] };
      if (nested.tokens) walk(nested.tokens);
      if (nested.items) walk(nested.items);
    }
  };
  walk(marked.lexer(text));
  return out;
}
