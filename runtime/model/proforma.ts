// ProForma 2.0 (HUPO-PSI) text of a modified peptide: fixed modifications as global `<[Name]@C>` tags, variable
// ones localised where their count fills every possible site and `[Name]^n?` otherwise, terminal ones as
// `[Name]-PEPTIDE` / `PEPTIDE-[Name]`. The plain sequence when nothing is modified.
import { residueSlot, siteSlots, slotsIn, type ModSpec, type Site } from './modifications.js';

/** A variable modification and how many of its sites carry it in this peptide. */
export interface Applied {
  spec: ModSpec;
  count: number;
}

/** The bracket text of a modification: its Unimod title (prefixed `U:` when it holds a colon), or a signed mass. */
export function proformaTag({ modification }: ModSpec): string {
  if (modification.accession === undefined) return modification.delta.startsWith('-') ? modification.delta : `+${modification.delta}`;
  return modification.name.includes(':') ? `U:${modification.name}` : modification.name;
}

/** Locations of a site in a global fixed-modification tag: `C`, `S,T`, `N-term`, `N-term:Q`. */
function globalLocations(site: Site): string[] {
  if (site.kind === 'residues') return [...site.letters];
  return site.kind === 'terminus' ? [`${site.end}-term`] : [`${site.end}-term:${site.letter}`];
}

/** Tags in first-seen order, with the values gathered for each. */
function byTag<T>(items: readonly { spec: ModSpec; value: T }[]): Map<string, T[]> {
  const tags = new Map<string, T[]>();
  for (const { spec, value } of items) tags.set(proformaTag(spec), [...(tags.get(proformaTag(spec)) ?? []), value]);
  return tags;
}

/** ProForma of `sequence` with every slot of each `fixed` spec modified and `variable` specs applied `count` times. */
export function proforma(sequence: string, fixed: readonly ModSpec[], variable: readonly Applied[]): string {
  if (fixed.length === 0 && variable.every((v) => v.count === 0)) return sequence; // most candidates of most queries
  // One global tag per modification (the query's items of one name merged, in first-given order) listing every
  // site the query gives it, written when the peptide holds at least one of them.
  const globals = byTag(fixed.map((spec) => ({ spec, value: { locations: globalLocations(spec.site), held: slotsIn(siteSlots(spec.site), sequence) > 0 } })));
  let text = '';
  for (const [tag, items] of globals) if (items.some((i) => i.held)) text += `<[${tag}]@${items.flatMap((i) => i.locations).join(',')}>`;

  const applied = variable.filter((v) => v.count > 0);
  const localised = applied.filter((v) => v.count === slotsIn(siteSlots(v.spec.site), sequence));
  const unlocalised = byTag(applied.filter((v) => !localised.includes(v)).map((v) => ({ spec: v.spec, value: v.count })));
  for (const [tag, counts] of unlocalised) {
    const n = counts.reduce((a, b) => a + b, 0);
    text += n === 1 ? `[${tag}]?` : `[${tag}]^${n}?`;
  }

  const atEnd = (end: 'N' | 'C') => localised.filter((v) => v.spec.site.kind !== 'residues' && v.spec.site.end === end).map((v) => `[${proformaTag(v.spec)}]`).join('');
  const nTerm = atEnd('N');
  const cTerm = atEnd('C');
  if (nTerm) text += `${nTerm}-`;
  const onResidues = localised.filter((v) => v.spec.site.kind === 'residues');
  if (onResidues.length === 0) text += sequence;
  else for (let i = 0; i < sequence.length; i++) {
    text += sequence[i];
    for (const v of onResidues) if (residueSlot(v.spec.site, sequence, i)) text += `[${proformaTag(v.spec)}]`;
  }
  if (cTerm) text += `-${cTerm}`;
  return text;
}
