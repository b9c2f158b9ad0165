// The dns form's type boxes: the API takes at most this many types in one request (src/tools/dns/schema.ts,
// MAX_TYPES), so once that many are ticked the others wait, disabled, until one is unticked.
export const MAX_TYPES = 8;

export function limitTypes(form: HTMLFormElement): void {
  const boxes = [...form.querySelectorAll<HTMLInputElement>('input[name="type"]')];
  const apply = () => {
    const full = boxes.filter((b) => b.checked).length >= MAX_TYPES;
    for (const box of boxes) box.disabled = full && !box.checked;
  };
  form.addEventListener('change', apply);
  apply();
}
