// Small DOM helpers: elements are built with textContent only (never innerHTML), so nothing a server or
// a resolver sends can become markup.

export function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

// A status line: what the section is doing, or what went wrong (role="status"/"alert" is in the HTML).
export function say(target: HTMLElement, text: string, kind: 'info' | 'error' = 'info'): void {
  target.textContent = text;
  target.classList.toggle('error', kind === 'error');
}
