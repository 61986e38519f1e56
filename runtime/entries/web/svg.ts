// SVG drawing for the page's plots (an identified spectrum, a fingerprint's peak list): an element with its
// attributes, and round axis ticks.

const NS = 'http://www.w3.org/2000/svg';

type Attrs = Record<string, string | number>;

/** An SVG element with `attrs` and `children`. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs, ...children: (Node | string)[]) {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** Round ticks covering [low, high]: about `count` of them at 1, 2 or 5 × 10^n apart. */
export function ticks(low: number, high: number, count: number): number[] {
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const out: number[] = [];
  for (let t = Math.ceil(low / step) * step; t <= high; t += step) out.push(Number(t.toFixed(6)));
  return out;
}
