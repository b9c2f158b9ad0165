import { client } from './api.js';
import { byId, el } from './dom.js';
import type { Location } from './client/index.js';

// Where the page measures from: a multi-select filled from GET /api/locations, shown only when the server
// lists more than itself (its agents). Nothing chosen: this server alone, as without the picker.

export async function startLocationsPicker(): Promise<void> {
  const answer = await client.locations();
  if (!answer.ok || answer.value.length < 2) return;
  const select = byId<HTMLSelectElement>('locations-select');
  select.replaceChildren(...answer.value.map(option));
  select.size = Math.min(answer.value.length, 6);
  byId('locations').hidden = false;
}

function option(location: Location): HTMLOptionElement {
  const place = [location.labels['city'], location.labels['country']].filter((s) => s !== undefined && s !== '').join(', ');
  const item = el('option', place === '' ? location.name : `${location.name} (${place})`);
  item.value = location.name;
  return item;
}

// The names chosen, in the list's order; empty when the picker is hidden or nothing is chosen.
export function chosenLocations(): string[] {
  if (byId('locations').hidden) return [];
  return [...byId<HTMLSelectElement>('locations-select').selectedOptions].map((o) => o.value);
}
