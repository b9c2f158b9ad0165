import { byId } from './dom.js';
import { LocatedTable } from './located-table.js';
import { chosenLocations } from './locations-picker.js';

// One section's form wired as the others are: a submit runs here, or from the locations chosen (one row
// per location); Run is disabled while a run goes, and Stop, where the section has one, aborts it.
export interface SectionRuns<R> {
  id: string; // the section's id: its form is `${id}-form`, its buttons `${id}-run` and `${id}-stop`
  columns: readonly string[]; // the located table's columns
  request(fields: FormData): R;
  here(request: R, status: HTMLElement, signal: AbortSignal): Promise<void>;
  from(request: R, names: string[], table: LocatedTable, status: HTMLElement, signal: AbortSignal): Promise<void>;
}

export function wireSection<R>(runs: SectionRuns<R>): void {
  const { id } = runs;
  const form = byId<HTMLFormElement>(`${id}-form`);
  const stop = document.getElementById(`${id}-stop`) as HTMLButtonElement | null;
  const status = byId(`${id}-status`);
  const located = new LocatedTable(byId(id), byId<HTMLTableElement>(`${id}-located`), byId(`${id}-located-verdict`), runs.columns);
  let running: AbortController | null = null;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (running !== null) return;
    const controller = (running = new AbortController());
    setRunning(true);
    const names = chosenLocations();
    if (names.length === 0) located.stop();
    const request = runs.request(new FormData(form));
    const done = names.length > 0 ? runs.from(request, names, located, status, controller.signal) : runs.here(request, status, controller.signal);
    void done.finally(() => {
      running = null;
      setRunning(false);
    });
  });
  stop?.addEventListener('click', () => running?.abort());

  function setRunning(on: boolean): void {
    byId<HTMLButtonElement>(`${id}-run`).disabled = on;
    if (stop !== null) stop.disabled = !on;
  }
}
