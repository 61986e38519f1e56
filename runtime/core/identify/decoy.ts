// Decoy peptides for target-decoy competition: a target's sequence reversed but for its C-terminal residue, so the
// decoy keeps the target's mass, composition and cleavage site; each residue's modification moves with it, the
// terminal ones stay at their ends.
import { N_TERM, type Form } from './forms.js';

/** A peptide as scored: its residues and what each position carries. */
export interface ScoredPeptide<M> {
  sequence: string;
  /** Per residue (same length as `sequence`); undefined where a residue carries nothing. */
  residues: readonly (M | undefined)[];
}

/** The decoy of `target`; undefined when it is the target itself (a palindrome but for its last residue). */
export function decoyOf<M>(target: ScoredPeptide<M>): ScoredPeptide<M> | undefined {
  const n = target.sequence.length;
  const sequence = reversedSequence(target.sequence);
  const residues: (M | undefined)[] = new Array(n);
  for (let i = 0; i < n - 1; i++) residues[i] = target.residues[n - 2 - i];
  residues[n - 1] = target.residues[n - 1];
  const same = sequence === target.sequence && residues.every((m, i) => m === target.residues[i]);
  return same ? undefined : { sequence, residues };
}

/** The last reversed sequence, kept: a candidate's forms share their sequence. */
let lastSequence = '';
let lastReversed = '';

/** `sequence` reversed but for its last residue. */
export function reversedSequence(sequence: string): string {
  if (sequence !== lastSequence) {
    let reversed = '';
    for (let i = sequence.length - 2; i >= 0; i--) reversed += sequence[i];
    lastSequence = sequence;
    lastReversed = reversed + sequence[sequence.length - 1];
  }
  return lastReversed;
}

/** Where a slot of a peptide of `n` residues goes in its decoy (forms.ts slots): the termini and last residue stay. */
const decoySlot = (slot: number, n: number) => (slot === N_TERM || slot >= n - 1 ? slot : n - 2 - slot);

/** The decoy of a localised form; undefined when it is the form itself. */
export function decoyForm(sequence: string, form: Form): { sequence: string; form: Form } | undefined {
  const decoy = decoyOf({ sequence, residues: form.residues });
  if (!decoy) return undefined;
  const placed = form.placed
    .map((p) => ({ spec: p.spec, slot: decoySlot(p.slot, sequence.length) }))
    .sort((a, b) => a.slot - b.slot);
  return {
    sequence: decoy.sequence,
    form: {
      residues: decoy.residues as number[],
      nTerm: form.nTerm,
      cTerm: form.cTerm,
      placed,
      ...(form.startsProtein && { startsProtein: true }),
    },
  };
}
