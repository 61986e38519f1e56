// The names a query gives, checked against its endpoint's parameter table: a name the table does not know is
// refused with the known name it most likely stands for, so a mistyped parameter never silently falls back to a
// default. The compatible endpoints' clients may send parameters of their own: there only near-misses are refused.
import { nearestName } from '../model/editDistance.js';
import { QueryError, type Param } from './params.js';

/**
 * What an endpoint does with a name its table does not list: `refuse` it, or refuse it only when it is a near-miss
 * of a known name (`nearMisses`: the same name in another case, or one or two letters off).
 */
export type UnknownParams = 'refuse' | 'nearMisses';

/** The names a row answers to: its own and its aliases. */
export const namesOf = (param: Param): string[] => [param.name, ...(param.aliases ?? [])];

/**
 * The row `name` most likely stands for: one it names in another case or with a typo (a near-miss), else one that
 * lists it among the names people also use for it (`alsoCalled`); undefined when none does.
 */
export function nearestParam(params: readonly Param[], name: string): { param: Param; nearMiss: boolean } | undefined {
  const named = params.flatMap((param) => namesOf(param).map((known) => ({ known, param })));
  const near = nearestName(
    name,
    named.map((n) => n.known),
  );
  if (near !== undefined) return { param: named.find((n) => n.known === near)!.param, nearMiss: true };
  const lower = name.toLowerCase();
  const param = params.find((p) => p.alsoCalled?.some((other) => other.toLowerCase() === lower));
  return param && { param, nearMiss: false };
}

/**
 * How to write the suggestion for `name`: the row's name, and the value of a choice row it names (`ppm` →
 * `tolerance` with `unit=ppm`). `spell` writes a name (the command line writes flags).
 */
export function suggestion(
  params: readonly Param[],
  name: string,
  param: Param,
  spell: (name: string, value?: string) => string,
): string {
  const lower = name.toLowerCase();
  for (const row of params) {
    const value = row.kind === 'choice' ? row.choices!.find((c) => c.toLowerCase() === lower) : undefined;
    if (value !== undefined && row !== param) return `${spell(param.name)} with ${spell(row.name, value)}`;
  }
  return spell(param.name);
}

/** The names a table answers to, made once per table (every request of an endpoint checks against them). */
const tables = new WeakMap<readonly Param[], ReadonlySet<string>>();
function knownNames(params: readonly Param[]): ReadonlySet<string> {
  let known = tables.get(params);
  if (!known) tables.set(params, (known = new Set(params.flatMap(namesOf))));
  return known;
}

const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
const urlSpelling = (name: string, value?: string) => (value === undefined ? name : `${name}=${value}`);

/**
 * Checks the names a query gives against `params`: a name no row answers to is a 400 naming it and the row it
 * most likely stands for (under `nearMisses`, only a near-miss is refused and other names are ignored).
 */
export function checkParamNames(params: readonly Param[], names: Iterable<string>, unknown: UnknownParams): void {
  const known = knownNames(params);
  for (const name of new Set(names)) {
    if (known.has(name)) continue;
    const nearest = nearestParam(params, name);
    if (unknown === 'nearMisses' && !nearest?.nearMiss) continue;
    const hint = nearest ? `: did you mean ${suggestion(params, name, nearest.param, urlSpelling)}?` : '';
    const takes = params.length === 0 ? 'none' : params.map((p) => p.name).join(', ');
    throw new QueryError(400, `unknown parameter ${quote(name)}${hint} (this endpoint takes ${takes})`);
  }
}
