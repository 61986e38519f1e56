// Localised forms of a candidate: a precursor search finds how many of each variable modification a peptide
// carries, scoring needs where. A form is one placement of those counts on distinct slots (a terminus, or a residue
// the modification's site allows), with every fixed modification on every slot of its site.
import { residueSlot, type ModSpec, type Site } from '../../model/modifications.js';
import type { Carried } from './fragments.js';

/** The slot of a peptide's N-terminus; residue i is slot i, the C-terminus slot `sequence.length`. */
export const N_TERM = -1;

/** Placements scored per candidate at most: more (three phosphorylations on a long S/T-rich peptide) are cut. */
export const MAX_FORMS = 1000;

/** A variable modification placed: the index of its spec in the query's list, and its slot. */
export interface Placed {
  spec: number;
  slot: number;
}

/** One form: the units each position carries (fixed and variable modifications) and the placements, by slot. */
export interface Form extends Required<Carried> {
  residues: number[];
  placed: Placed[];
  /** The peptide is taken as its proteins' first (protein N-term sites are slots of it): for its ProForma. */
  startsProtein?: boolean;
}

/** The slots of `site` in `sequence`, ascending; `startsProtein`: the peptide is taken as its proteins' first. */
export function slotsOf(site: Site, sequence: string, startsProtein = false): number[] {
  if (site.kind === 'terminus') return [site.end === 'N' ? N_TERM : sequence.length];
  if (site.kind === 'protein terminus') return startsProtein ? [N_TERM] : [];
  const slots: number[] = [];
  for (let i = 0; i < sequence.length; i++) if (residueSlot(site, sequence, i)) slots.push(i);
  return slots;
}

/** Adds `units` to what `form` carries at `slot`. */
function carry(form: Form, slot: number, units: number): void {
  if (slot === N_TERM) form.nTerm += units;
  else if (slot === form.residues.length) form.cTerm += units;
  else form.residues[slot] += units;
}

/**
 * Every form of `sequence` with `counts[i]` of variable spec i (at most `limit`, in the order of the placements'
 * slots, spec by spec), each distinct: two specs of one modification on one slot set are one form. `cut` says
 * whether forms were left out.
 */
export function localisedForms(
  sequence: string,
  fixed: readonly ModSpec[],
  variable: readonly ModSpec[],
  counts: readonly number[],
  limit = MAX_FORMS,
  startsProtein = false,
): { forms: Form[]; cut: boolean } {
  const base: Form = { residues: new Array(sequence.length).fill(0), nTerm: 0, cTerm: 0, placed: [] };
  if (startsProtein) base.startsProtein = true;
  for (const spec of fixed)
    for (const slot of slotsOf(spec.site, sequence, startsProtein)) carry(base, slot, spec.modification.deltaUnits);
  // Most candidates carry no variable modification: their one form needs no search.
  if (counts.every((c) => c === 0)) return { forms: [base], cut: false };
  const candidates = variable.map((spec) => slotsOf(spec.site, sequence, startsProtein));
  const used = variable.map((_, i) => i).filter((i) => counts[i] > 0);
  const forms: Form[] = [];
  const seen = new Set<string>();
  const taken = new Set<number>();
  const placed: Placed[] = [];
  let cut = false;

  const place = (u: number, from: number, left: number): void => {
    if (u === used.length) return finish();
    const spec = used[u];
    if (left === 0) return place(u + 1, 0, counts[used[u + 1]] ?? 0);
    const slots = candidates[spec];
    for (let k = from; k < slots.length && !cut; k++) {
      if (taken.has(slots[k])) continue;
      taken.add(slots[k]);
      placed.push({ spec, slot: slots[k] });
      place(u, k + 1, left - 1);
      placed.pop();
      taken.delete(slots[k]);
    }
  };
  const finish = (): void => {
    const bySlot = [...placed].sort((a, b) => a.slot - b.slot);
    const key = bySlot.map((p) => `${p.slot}:${variable[p.spec].modification.name}`).join(',');
    if (seen.has(key)) return;
    if (forms.length === limit) {
      cut = true; // a form more than the limit: the search stops here
      return;
    }
    seen.add(key);
    const form: Form = { ...base, residues: [...base.residues], placed: bySlot };
    for (const p of bySlot) carry(form, p.slot, variable[p.spec].modification.deltaUnits);
    forms.push(form);
  };
  place(0, 0, counts[used[0]] ?? 0);
  return { forms, cut };
}
