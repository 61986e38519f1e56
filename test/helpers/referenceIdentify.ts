// A brute-force reference for identification (npm run query -- identify), written from the definitions alone so it
// cannot share a bug with the runtime: MGF read by its own parser; candidates from the reference precursor search
// (referencePrecursor.ts) at each charge and isotope error; every placement of each candidate's variable
// modifications found by trying every slot; b/y ions from the reference residue table in exact units; peaks and
// matching, decoys and the hyperscore as docs/identify.md defines them.
import { REFERENCE_PROTON, slotsOf, type RefForm, type RefMod, type ReferencePrecursor } from './referencePrecursor.js';
import { decimalToUnits, lowerBound, REFERENCE_RESIDUE_MASS, REFERENCE_WATER } from './reference.js';

/** 13C − 12C, Da. */
const ISOTOPE_SPACING = 1.0033548378;
const UNITS = 1e10;
const RESIDUE = new Map(Object.entries(REFERENCE_RESIDUE_MASS).map(([r, m]) => [r, decimalToUnits(m)]));
const WATER = decimalToUnits(REFERENCE_WATER);

export interface RefSpectrum {
  index: number;
  title?: string;
  mz: number;
  charges: number[];
  peaks: { mz: number; intensity: number }[];
}

/** The spectra of an MGF text (records with a PEPMASS; CHARGE `2+`, `3+`…), each with its peak lines. */
export function refSpectra(text: string): RefSpectrum[] {
  return text
    .split(/^BEGIN IONS\s*$/m)
    .slice(1)
    .map((record, i) => {
      const field = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(record)?.[1].trim();
      const peaks = record
        .split('\n')
        .filter((line) => /^\d/.test(line))
        .map((line) => line.trim().split(/\s+/).map(Number))
        .map(([mz, intensity]) => ({ mz, intensity }));
      const charge = field('CHARGE');
      return {
        index: i + 1,
        title: field('TITLE'),
        mz: Number(field('PEPMASS')!.split(/\s+/)[0]),
        charges: charge ? charge.split(/,|\s+and\s+/).map((c) => Number.parseInt(c, 10)) : [],
        peaks,
      };
    });
}

export interface RefScoring {
  tolerancePpm: number;
  isotopeErrors: number[];
  charges: number[];
  fragment: { value: number; unit: 'ppm' | 'Da' };
  maxFragmentCharge: number;
  topPeaks: number;
  minMatched: number;
}

/** A scored peptide: sequence, per-position delta units (residues; then N- and C-terminus), decoy or not. */
export interface RefPsm {
  sequence: string;
  decoy: boolean;
  /** `slot:modification text` of each variable modification placed (slot: residue i, L N-term, L + 1 C-term). */
  placed: string[];
  charge: number;
  isotopeError: number;
  b: number;
  y: number;
  hyperscore: number;
  accessions: string[];
}

/** Every placement of `counts` of each variable modification on distinct slots, as slot → modification index. */
function placements(sequence: string, variable: readonly RefMod[], counts: readonly number[]): Map<number, number>[] {
  const L = sequence.length;
  const slots = Array.from({ length: L + 2 }, (_, i) => i);
  const found = new Map<string, Map<number, number>>();
  const chosen = new Map<number, number>();
  const walk = (k: number) => {
    if (k === slots.length) {
      const got = variable.map((_, m) => [...chosen.values()].filter((v) => v === m).length);
      if (got.every((c, m) => c === counts[m])) {
        const key = [...chosen]
          .sort((a, b) => a[0] - b[0])
          .map(([slot, m]) => `${slot}:${variable[m].units}`)
          .join(',');
        if (!found.has(key)) found.set(key, new Map(chosen));
      }
      return;
    }
    walk(k + 1);
    variable.forEach((mod, m) => {
      if (!slotsOf(mod.site, sequence).includes(slots[k])) return;
      chosen.set(slots[k], m);
      walk(k + 1);
      chosen.delete(slots[k]);
    });
  };
  walk(0);
  return [...found.values()];
}

/** Delta units per slot (residue i, L N-term, L + 1 C-term) of the fixed modifications and a placement. */
function deltas(sequence: string, fixed: readonly RefMod[], variable: readonly RefMod[], placed: Map<number, number>) {
  const d = new Array<bigint>(sequence.length + 2).fill(0n);
  for (const mod of fixed) for (const slot of slotsOf(mod.site, sequence)) d[slot] += mod.units;
  for (const [slot, m] of placed) d[slot] += variable[m].units;
  return d;
}

/** The hyperscore of a peptide (per-slot deltas) against prepared peaks. */
function score(
  sequence: string,
  d: readonly bigint[],
  peaks: RefSpectrum['peaks'],
  charge: number,
  s: RefScoring,
): { b: number; y: number; hyperscore: number } {
  const L = sequence.length;
  const top = Math.max(1, Math.min(charge - 1, s.maxFragmentCharge));
  const sums = { b: 0, y: 0, nb: 0, ny: 0 };
  const match = (units: bigint, kind: 'b' | 'y') => {
    for (let z = 1; z <= top; z++) {
      const mz = (Number(units) / UNITS + z * REFERENCE_PROTON) / z;
      const tol = s.fragment.unit === 'ppm' ? (mz * s.fragment.value) / 1e6 : s.fragment.value;
      let best: RefSpectrum['peaks'][number] | undefined;
      for (const p of peaks) if (Math.abs(p.mz - mz) <= tol && (!best || p.intensity > best.intensity)) best = p;
      if (!best) continue;
      if (kind === 'b') sums.nb++, (sums.b += best.intensity);
      else sums.ny++, (sums.y += best.intensity);
    }
  };
  for (let i = 1; i < L; i++) {
    let b = d[L];
    for (let k = 0; k < i; k++) b += RESIDUE.get(sequence[k])! + d[k];
    match(b, 'b');
    let y = d[L + 1] + WATER;
    for (let k = L - i; k < L; k++) y += RESIDUE.get(sequence[k])! + d[k];
    match(y, 'y');
  }
  let lnFactorials = 0;
  for (let k = 2; k <= sums.nb; k++) lnFactorials += Math.log(k);
  for (let k = 2; k <= sums.ny; k++) lnFactorials += Math.log(k);
  return { b: sums.nb, y: sums.ny, hyperscore: Math.log((sums.b + 1) * (sums.y + 1)) + lnFactorials };
}

/** A peptide reversed but for its last residue, each residue's delta with it; termini kept. */
function reversed(sequence: string, d: readonly bigint[]): { sequence: string; d: bigint[] } {
  const L = sequence.length;
  const order = [...Array.from({ length: L - 1 }, (_, i) => L - 2 - i), L - 1];
  return { sequence: order.map((i) => sequence[i]).join(''), d: [...order.map((i) => d[i]), d[L], d[L + 1]] };
}

/** The best PSMs of a spectrum (all that match `minMatched` ions), best first as the specification orders them. */
export function referencePsms(
  spectrum: RefSpectrum,
  reference: ReferencePrecursor,
  s: RefScoring,
): { psms: RefPsm[]; scored: number; matchedIons: number } {
  const { fixed, variable } = reference.setting;
  const peaks = spectrum.peaks
    .filter((p) => Math.abs(p.mz - spectrum.mz) > 1.5)
    .sort((a, b) => b.intensity - a.intensity || a.mz - b.mz)
    .slice(0, s.topPeaks);
  const psms: RefPsm[] = [];
  let scored = 0;
  let matchedIons = 0; // over every form scored, kept or not
  for (const charge of spectrum.charges.length > 0 ? spectrum.charges : s.charges) {
    for (const isotopeError of s.isotopeErrors) {
      const M = (spectrum.mz - REFERENCE_PROTON) * charge - isotopeError * ISOTOPE_SPACING;
      const low = Math.ceil((M - (M * s.tolerancePpm) / 1e6) * 10_000);
      const high = Math.floor((M + (M * s.tolerancePpm) / 1e6) * 10_000);
      const forms: RefForm[] = [];
      for (
        let f = lowerBound(
          reference.forms.map((x) => x.key),
          low,
        );
        f < reference.forms.length;
        f++
      ) {
        if (reference.forms[f].key > high) break;
        forms.push(reference.forms[f]);
      }
      const targets = forms.flatMap((form) =>
        placements(form.peptide.sequence, variable, form.counts).map((placed) => ({
          form,
          placed,
          d: deltas(form.peptide.sequence, fixed, variable, placed),
        })),
      );
      const same = (a: string, ad: readonly bigint[], b: string, bd: readonly bigint[]) =>
        a.replaceAll('I', 'L') === b.replaceAll('I', 'L') && ad.every((x, i) => x === bd[i]);
      const add = (sequence: string, d: bigint[], placed: string[], decoy: boolean, form: RefForm) => {
        scored++;
        const got = score(sequence, d, peaks, charge, s);
        matchedIons += got.b + got.y;
        if (got.b + got.y < s.minMatched) return;
        const accessions = form.peptide.accsTax.map((a) => a.acc);
        psms.push({ sequence, decoy, placed, charge, isotopeError, ...got, accessions });
      };
      for (const { form, placed, d } of targets) {
        const sequence = form.peptide.sequence;
        const L = sequence.length;
        const text = [...placed].sort((a, b) => a[0] - b[0]).map(([slot, m]) => `${slot}:${variable[m].text}`);
        add(sequence, d, text, false, form);
        const decoy = reversed(sequence, d);
        // A decoy that is a target (itself included), I and L alike, is no decoy.
        if (targets.some((t) => same(decoy.sequence, decoy.d, t.form.peptide.sequence, t.d))) continue;
        const moved = (slot: number) => (slot >= L - 1 ? slot : L - 2 - slot);
        const decoyText = [...placed]
          .map(([slot, m]) => [moved(slot), m] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([slot, m]) => `${slot}:${variable[m].text}`);
        add(decoy.sequence, decoy.d, decoyText, true, form);
      }
    }
  }
  psms.sort(
    (a, b) =>
      b.hyperscore - a.hyperscore ||
      Number(b.decoy) - Number(a.decoy) ||
      (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0),
  );
  return { psms, scored, matchedIons };
}
