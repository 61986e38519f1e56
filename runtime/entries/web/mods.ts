// The modification picker: common Unimod entries as rows of Off / Fixed / Variable radio buttons (each one click
// away), and the `Name@Sites` items no row stands for, kept for the two free-text fields.
import { h } from './dom.js';

export type ModChoice = 'off' | 'fixed' | 'variable';

export interface CommonMod {
  name: string;
  sites: string;
  /** The API's items for it (TMT6plex labels K and the N-terminus: two items). */
  specs: string[];
}

export const COMMON_MODS: readonly CommonMod[] = [
  { name: 'Carbamidomethyl', sites: 'C', specs: ['Carbamidomethyl@C'] },
  { name: 'Oxidation', sites: 'M', specs: ['Oxidation@M'] },
  { name: 'Phospho', sites: 'S, T, Y', specs: ['Phospho@STY'] },
  { name: 'Acetyl', sites: 'peptide N-term', specs: ['Acetyl@N-term'] },
  { name: 'Deamidated', sites: 'N, Q', specs: ['Deamidated@NQ'] },
  { name: 'Gln→pyro-Glu', sites: 'N-terminal Q', specs: ['Gln->pyro-Glu@Q@N-term'] },
  { name: 'TMT6plex', sites: 'K, N-term', specs: ['TMT6plex@K', 'TMT6plex@N-term'] },
  { name: 'GG (ubiquitin remnant)', sites: 'K', specs: ['GG@K'] },
];

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const holds = (list: readonly string[], specs: readonly string[]) =>
  specs.every((s) => list.some((item) => same(item, s)));

/** Fixed and variable lists as the picker shows them: a choice per common row, and the items left over. */
export function splitMods(
  fixed: readonly string[],
  variable: readonly string[],
): { choices: ModChoice[]; fixedMore: string[]; variableMore: string[] } {
  const choices = COMMON_MODS.map(
    (m): ModChoice => (holds(fixed, m.specs) ? 'fixed' : holds(variable, m.specs) ? 'variable' : 'off'),
  );
  const taken = (choice: ModChoice) => COMMON_MODS.flatMap((m, i) => (choices[i] === choice ? m.specs : []));
  const rest = (list: readonly string[], choice: ModChoice) =>
    list.filter((item) => !taken(choice).some((s) => same(s, item)));
  return { choices, fixedMore: rest(fixed, 'fixed'), variableMore: rest(variable, 'variable') };
}

/** The picker's rows and free-text items as the API's lists: rows in table order, then the free items. */
export function joinMods(
  choices: readonly ModChoice[],
  fixedMore: readonly string[],
  variableMore: readonly string[],
): { fixed: string[]; variable: string[] } {
  const of = (choice: ModChoice) => COMMON_MODS.flatMap((m, i) => (choices[i] === choice ? m.specs : []));
  return { fixed: [...of('fixed'), ...fixedMore], variable: [...of('variable'), ...variableMore] };
}

/** The rows as radio groups, named mod-<i>. */
export function modRows(): HTMLElement {
  return h(
    'table',
    { class: 'mod-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Unimod'),
        h('th', { scope: 'col' }, 'Sites'),
        ...(['Off', 'Fixed', 'Variable'] as const).map((t) => h('th', { scope: 'col', class: 'choice' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      COMMON_MODS.map((m, i) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row', id: `mod-${i}-name` }, m.name),
          h('td', {}, m.sites),
          (['off', 'fixed', 'variable'] as const).map((choice) =>
            h(
              'td',
              { class: 'choice' },
              h('input', {
                type: 'radio',
                name: `mod-${i}`,
                value: choice,
                'aria-label': `${m.name} (${m.sites}): ${choice}`,
              }),
            ),
          ),
        ),
      ),
    ),
  );
}
