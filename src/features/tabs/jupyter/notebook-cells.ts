import type { Event } from '../../../../openapi/types.ts';

// The notebook: an input cell for each run_ipython action (its Python code) and an output cell for
// each run_ipython observation (its text and images), in event order.

export type NotebookCell =
  | { id: number; type: 'input'; code: string }
  | { id: number; type: 'output'; text: string; imageUrls: readonly string[] };

function cellOf(event: Event): NotebookCell | null {
  if (event.action === 'run_ipython') return { id: event.id, type: 'input', code: event.args?.code ?? '' };
  if (event.observation === 'run_ipython')
    return { id: event.id, type: 'output', text: event.content ?? '', imageUrls: event.extras?.image_urls ?? [] };
  return null;
}

/** A selector of the cells that recomputes only for a new events array and reuses the cell objects. */
export function createNotebookSelector(): (snapshot: { events: readonly Event[] }) => NotebookCell[] {
  const cells = new WeakMap<Event, NotebookCell | null>();
  let lastEvents: readonly Event[] | null = null;
  let lastCells: NotebookCell[] = [];
  return (snapshot) => {
    if (snapshot.events === lastEvents) return lastCells;
    lastEvents = snapshot.events;
    const next: NotebookCell[] = [];
    for (const event of snapshot.events) {
      let cell = cells.get(event);
      if (cell === undefined) {
        cell = cellOf(event);
        cells.set(event, cell);
      }
      if (cell) next.push(cell);
    }
    const unchanged = next.length === lastCells.length && next.every((cell, index) => cell === lastCells[index]);
    if (!unchanged) lastCells = next;
    return lastCells;
  };
}
