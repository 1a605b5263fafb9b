/** Lines grouped per supply source: one child order each (contract ChildOrder). */
export function groupLinesBySource<L extends { source: { source: number; type: number; name: string } }>(
  lines: readonly L[],
): { key: string; source: number; name: string; lines: L[] }[] {
  const groups = new Map<string, { key: string; source: number; name: string; lines: L[] }>();
  for (const line of lines) {
    const key = `${line.source.source}-${line.source.type}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, source: line.source.source, name: line.source.name, lines: [] };
      groups.set(key, group);
    }
    group.lines.push(line);
  }
  return [...groups.values()];
}
