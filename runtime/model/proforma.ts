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
  return proformaWriter(
    fixed,
    variable.map((v) => v.spec),
  )(
    sequence,
    variable.map((v) => v.count),
  );
}

/**
 * ProForma text for one query's modifications, compiled once: tags, locations and site slots are worked out
 * here, so each candidate (a sequence and a count per variable spec) costs only its own slot counts.
 */
export function proformaWriter(fixed: readonly ModSpec[], variable: readonly ModSpec[]): (sequence: string, counts: readonly number[]) => string {
  // One global tag per modification (the query's items of one name merged, in first-given order) listing every
  // site the query gives it, written when the peptide holds at least one of them.
  const globals = [...byTag(fixed.map((spec) => ({ spec, value: spec })))].map(([tag, specs]) => ({
    text: `<[${tag}]@${specs.flatMap((spec) => globalLocations(spec.site)).join(',')}>`,
    slots: specs.map((spec) => siteSlots(spec.site)),
  }));
  const slots = variable.map((spec) => siteSlots(spec.site));
  const tags = variable.map(proformaTag);
  return (sequence, counts) => {
    // Plain loops up to the first return: most candidates of most queries take it, millions in a batch match.
    let text = '';
    for (const g of globals) {
      for (const set of g.slots) {
        if (slotsIn(set, sequence) > 0) {
          text += g.text;
          break;
        }
      }
    }
    let unmodified = true;
    for (const count of counts) if (count !== 0) unmodified = false;
    if (unmodified) return text + sequence;
    const applied = counts.flatMap((count, i) => (count > 0 ? [i] : []));

    // A variable modification is localised when its count fills every slot of its site in the peptide.
    const localised = applied.filter((i) => counts[i] === slotsIn(slots[i], sequence));
    const unlocalised = new Map<string, number>();
    for (const i of applied) if (!localised.includes(i)) unlocalised.set(tags[i], (unlocalised.get(tags[i]) ?? 0) + counts[i]);
    for (const [tag, n] of unlocalised) text += n === 1 ? `[${tag}]?` : `[${tag}]^${n}?`;

    const atEnd = (end: 'N' | 'C') => localised.filter((i) => variable[i].site.kind !== 'residues' && variable[i].site.end === end).map((i) => `[${tags[i]}]`).join('');
    const nTerm = atEnd('N');
    const cTerm = atEnd('C');
    if (nTerm) text += `${nTerm}-`;
    const onResidues = localised.filter((i) => variable[i].site.kind === 'residues');
    if (onResidues.length === 0) text += sequence;
    else {
      for (let r = 0; r < sequence.length; r++) {
        text += sequence[r];
        for (const i of onResidues) if (residueSlot(variable[i].site, sequence, r)) text += `[${tags[i]}]`;
      }
    }
    if (cTerm) text += `-${cTerm}`;
    return text;
  };
}
