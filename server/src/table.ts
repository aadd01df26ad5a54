/** A Markdown table with padded columns (the bench suites print theirs with it). */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => '| ' + r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ') + ' |';
  return [line(rows[0]!), '|' + widths.map((wd) => '-'.repeat(wd + 2)).join('|') + '|', ...rows.slice(1).map(line)].join('\n') + '\n';
}
