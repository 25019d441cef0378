/**
 * What Enter in the command palette acts on, decided from the text in the input at that moment — not from the
 * highlighted row, which cmdk updates a render later: typing fast and pressing Enter at once used to run the row
 * highlighted for an earlier prefix. The highlight counts only when the user moved it (arrows, pointer) while the
 * text was what it is now; otherwise the best match wins, as cmdk ranks them (its own scorer, ties in list order).
 */
import { defaultFilter } from "cmdk";

/** One row of the palette: its cmdk value and whether it can run. */
export interface PaletteEntry {
  readonly value: string;
  readonly disabled: boolean;
}

/** Where the highlight is, and the input text it was chosen for by the user (null: cmdk moved it itself). */
export interface PaletteHighlight {
  readonly value: string | undefined;
  readonly chosenFor: string | null;
}

/** The entry Enter runs for `text`, or undefined when nothing enabled matches. */
export function pickEntry<Entry extends PaletteEntry>(entries: readonly Entry[], text: string, highlight: PaletteHighlight): Entry | undefined {
  const search = text.trim();
  const enabled = entries.filter((entry) => !entry.disabled);
  if (highlight.chosenFor === text) {
    const chosen = enabled.find((entry) => entry.value === highlight.value);
    if (chosen !== undefined) return chosen;
  }
  if (search === "") return enabled[0];
  let best: Entry | undefined;
  let bestScore = 0;
  for (const entry of enabled) {
    const score = defaultFilter(entry.value, search);
    if (score > bestScore) {
      best = entry;
      bestScore = score;
    }
  }
  return best;
}
