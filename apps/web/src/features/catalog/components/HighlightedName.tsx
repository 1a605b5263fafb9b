import { type HighlightRange, highlightParts } from '../lib/highlight.ts';

/** A product name with the search matches marked (ranges from the server). */
export function HighlightedName({ name, ranges }: { name: string; ranges: readonly HighlightRange[] }) {
  return (
    <>
      {highlightParts(name, ranges).map((part, i) =>
        part.isMatch ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
          <em key={i} className="search-hit">
            {part.text}
          </em>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
