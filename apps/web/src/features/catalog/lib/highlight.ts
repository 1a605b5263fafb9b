/** A piece of a product name: plain or highlighted (a search match). */
export interface NamePart {
  text: string;
  isMatch: boolean;
}

export interface HighlightRange {
  start: number;
  end: number;
}

/**
 * Cuts a name into plain and highlighted parts from the server's ranges ([start, end) in
 * UTF-16 code units). Ranges are clamped to the name, sorted and merged, so an odd answer
 * can never drop or repeat a character.
 */
export function highlightParts(name: string, ranges: readonly HighlightRange[]): NamePart[] {
  const clean = ranges
    .map((r) => ({
      start: Math.max(0, Math.min(r.start, name.length)),
      end: Math.max(0, Math.min(r.end, name.length)),
    }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const merged: HighlightRange[] = [];
  for (const r of clean) {
    const last = merged.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  const parts: NamePart[] = [];
  let at = 0;
  for (const r of merged) {
    if (r.start > at) parts.push({ text: name.slice(at, r.start), isMatch: false });
    parts.push({ text: name.slice(r.start, r.end), isMatch: true });
    at = r.end;
  }
  if (at < name.length) parts.push({ text: name.slice(at), isMatch: false });
  return parts;
}
