// A small DOM helper for the page: elements from a tag, attributes (listeners for `on…` keys) and children. No
// framework: the page is a form, tables and two charts.
type Child = Node | string | number | null | undefined | false | Child[];
type Attr = string | number | boolean | undefined | ((event: Event) => void);

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** `<tag attrs…>children</tag>`; an attribute that is false or undefined is left out, true is written empty. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, Attr> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== false) element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** The element `selector` finds (the page's markup has it). */
export const $ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T =>
  root.querySelector<T>(selector)!;

/** Replaces an element's children. */
export const fill = (parent: Element, ...children: Child[]): void => {
  parent.replaceChildren();
  append(parent, children);
};
