// A brute-force reference for /api/v1/search (precursor search with modifications), written from docs/api.md's
// specification alone, so it cannot share a bug with the runtime: it imports only the independent references
// (reference.ts, referenceUnimod.ts). Every peptide is expanded into every modified form by enumerating positional
// assignments of the variable modifications to its slots, deduplicated by (sequence, counts), weighed exactly in
// integer units (BigInt sums, or Numbers checked to stay below 2^53), keyed and sorted; a query is a binary search
// over the keys.
import {
  decimalToUnits,
  lowerBound,
  REFERENCE_RESIDUE_MASS,
  REFERENCE_WATER,
  referenceDataset,
  referenceFasta,
} from './reference.js';
import { findUnimod, unimodUnits } from './referenceUnimod.js';

/** Proton mass (CODATA 2018), Da. */
export const REFERENCE_PROTON = 1.007276466621;

// ---------------------------------------------------------------- seeded randomness

// ---------------------------------------------------------------- modifications

/** Where a modification may sit. */
export type RefSite =
  | { kind: 'residues'; residues: string }
  | { kind: 'N-term' }
  | { kind: 'C-term' }
  | { kind: 'N-term-residue'; residues: string }
  | { kind: 'C-term-residue'; residues: string };

export interface RefMod {
  /** The text it was given as (`Oxidation@M`). */
  text: string;
  /** What ProForma writes between the brackets: the Unimod title (`U:` prefixed when it holds a colon) or the signed mass. */
  tag: string;
  /** Delta in 1e-10 Da. */
  units: bigint;
  site: RefSite;
  /** The site as a global tag lists it: `S,T,Y`, `N-term`, `C-term`, `N-term:Q`. */
  siteList: string;
}

function parseSite(text: string, whole: string): RefSite {
  if (text === 'N-term') return { kind: 'N-term' };
  if (text === 'C-term') return { kind: 'C-term' };
  const terminal = /^([A-Z]+)@([NC])-term$/.exec(text);
  if (terminal) return { kind: terminal[2] === 'N' ? 'N-term-residue' : 'C-term-residue', residues: terminal[1] };
  if (/^[A-Z]+$/.test(text)) return { kind: 'residues', residues: text };
  throw new Error(`reference: cannot read the site of ${whole}`);
}

function siteList(site: RefSite): string {
  switch (site.kind) {
    case 'residues':
      return site.residues.split('').join(',');
    case 'N-term':
    case 'C-term':
      return site.kind;
    case 'N-term-residue':
      return site.residues
        .split('')
        .map((r) => `N-term:${r}`)
        .join(',');
    case 'C-term-residue':
      return site.residues
        .split('')
        .map((r) => `C-term:${r}`)
        .join(',');
  }
}

/** One `Name@Sites` item: a Unimod title, `UNIMOD:<n>`, or a custom `Name:+12.3456`. */
export function parseRefMod(text: string): RefMod {
  const at = text.indexOf('@');
  if (at <= 0) throw new Error(`reference: no site in ${text}`);
  const name = text.slice(0, at);
  const site = parseSite(text.slice(at + 1), text);
  const entry = findUnimod(name);
  if (entry) {
    return {
      text,
      tag: entry.title.includes(':') ? `U:${entry.title}` : entry.title,
      units: unimodUnits(entry),
      site,
      siteList: siteList(site),
    };
  }
  const custom = /^[^:]+:([+-])(\d+)(?:\.(\d{1,10}))?$/.exec(name);
  if (!custom) throw new Error(`reference: unknown modification ${name}`);
  const magnitude = decimalToUnits(`${custom[2]}.${custom[3] ?? '0'}`);
  const mass = custom[3] === undefined ? custom[2] : `${custom[2]}.${custom[3]}`;
  return {
    text,
    tag: `${custom[1]}${mass}`,
    units: custom[1] === '-' ? -magnitude : magnitude,
    site,
    siteList: siteList(site),
  };
}

/** A comma-separated list of `Name@Sites` (empty text: none). */
export function parseRefMods(text: string): RefMod[] {
  return text === '' ? [] : text.split(',').map(parseRefMod);
}

/**
 * The slots of a site in a peptide of length L: residue i is slot i, the N-terminus slot L, the C-terminus slot
 * L + 1. A residue at a terminus (`Q@N-term`) is that residue's slot, when the terminal residue is one of them.
 */
export function slotsOf(site: RefSite, sequence: string): number[] {
  const L = sequence.length;
  switch (site.kind) {
    case 'residues': {
      const slots: number[] = [];
      for (let i = 0; i < L; i++) if (site.residues.includes(sequence[i])) slots.push(i);
      return slots;
    }
    case 'N-term':
      return [L];
    case 'C-term':
      return [L + 1];
    case 'N-term-residue':
      return L > 0 && site.residues.includes(sequence[0]) ? [0] : [];
    case 'C-term-residue':
      return L > 0 && site.residues.includes(sequence[L - 1]) ? [L - 1] : [];
  }
}

export interface RefSetting {
  fixed: RefMod[];
  variable: RefMod[];
  maxVariable: number;
}

/**
 * The distinct count vectors (one count per variable modification) reachable by assigning variable
 * modifications to slots positionally: each slot takes none or one of the modifications whose site it is,
 * at most maxVariable in all.
 */
export function variableCountVectors(sequence: string, variable: readonly RefMod[], maxVariable: number): number[][] {
  return countVectorsOfSlots(openSlots(sequence, variable), variable.length, maxVariable);
}

/** The modifications each slot of a sequence may take, for the slots that may take one (in slot order). */
function openSlots(sequence: string, variable: readonly RefMod[]): number[][] {
  const choices: number[][] = Array.from({ length: sequence.length + 2 }, () => []);
  variable.forEach((mod, m) => {
    for (const slot of slotsOf(mod.site, sequence)) choices[slot].push(m);
  });
  return choices.filter((c) => c.length > 0);
}

/** variableCountVectors over the open slots' choices, by walking every positional assignment. */
function countVectorsOfSlots(open: readonly number[][], modCount: number, maxVariable: number): number[][] {
  const seen = new Map<string, number[]>();
  const counts = new Array<number>(modCount).fill(0);
  const walk = (at: number, used: number): void => {
    if (at === open.length) {
      const signature = counts.join(',');
      if (!seen.has(signature)) seen.set(signature, counts.slice());
      return;
    }
    walk(at + 1, used); // this slot left unmodified
    if (used === maxVariable) return;
    for (const m of open[at]) {
      counts[m]++;
      walk(at + 1, used + 1);
      counts[m]--;
    }
  };
  walk(0, 0);
  return [...seen.values()];
}

/**
 * variableCountVectors for many sequences: the set of count vectors depends only on the multiset of the open slots'
 * choices (reordering slots reorders assignments, not what they count), so the walk is done once per multiset.
 */
class CountVectors {
  private readonly known = new Map<string, number[][]>();
  /** Per slot of the sequence at hand, the modifications it may take as bits (slot L N-term, L + 1 C-term). */
  private readonly bits: number[] = [];
  constructor(
    private readonly variable: readonly RefMod[],
    private readonly maxVariable: number,
  ) {
    if (variable.length > 30) throw new Error('reference: too many variable modifications');
  }

  of(sequence: string): number[][] {
    if (this.variable.length === 0) return [[]];
    const bits = this.bits;
    bits.length = 0;
    for (let i = 0; i < sequence.length + 2; i++) bits.push(0);
    this.variable.forEach((mod, m) => {
      for (const slot of slotsOf(mod.site, sequence)) bits[slot] |= 1 << m;
    });
    const shape = bits
      .filter((b) => b !== 0)
      .sort((x, y) => x - y)
      .join(',');
    let vectors = this.known.get(shape);
    if (!vectors) {
      const open =
        shape === ''
          ? []
          : shape.split(',').map((b) => this.variable.flatMap((_, m) => ((Number(b) >> m) & 1 ? [m] : [])));
      vectors = countVectorsOfSlots(open, this.variable.length, this.maxVariable);
      this.known.set(shape, vectors);
    }
    return vectors;
  }
}

/** ProForma 2.0 of a modified form, by docs/api.md's rules. */
export function referenceProforma(sequence: string, setting: RefSetting, counts: readonly number[]): string {
  // Global tags: one per modification name, in first-given order, listing every site the query gives it;
  // written when the peptide holds at least one of those sites.
  const tags = new Map<string, { sites: string[]; held: boolean }>();
  for (const mod of setting.fixed) {
    const tag = tags.get(mod.tag) ?? { sites: [], held: false };
    tag.sites.push(mod.siteList);
    tag.held ||= slotsOf(mod.site, sequence).length > 0;
    tags.set(mod.tag, tag);
  }
  let globals = '';
  for (const [tag, { sites, held }] of tags) if (held) globals += `<[${tag}]@${sites.join(',')}>`;
  let unlocalised = '';
  let nTerm = '';
  let cTerm = '';
  const after: string[] = new Array<string>(sequence.length).fill('');
  setting.variable.forEach((mod, m) => {
    const count = counts[m];
    if (count === 0) return;
    const slots = slotsOf(mod.site, sequence);
    if (count < slots.length) {
      unlocalised += `[${mod.tag}]${count > 1 ? `^${count}` : ''}?`;
      return;
    }
    if (count !== slots.length)
      throw new Error(`reference: ${count} × ${mod.text} on ${slots.length} slots of ${sequence}`);
    switch (mod.site.kind) {
      case 'residues':
        for (const slot of slots) after[slot] += `[${mod.tag}]`;
        break;
      case 'N-term':
      case 'N-term-residue':
        nTerm += `[${mod.tag}]`;
        break;
      case 'C-term':
      case 'C-term-residue':
        cTerm += `[${mod.tag}]`;
        break;
    }
  });
  let body = '';
  for (let i = 0; i < sequence.length; i++) body += sequence[i] + after[i];
  return `${globals}${unlocalised}${nTerm === '' ? '' : `${nTerm}-`}${body}${cTerm === '' ? '' : `-${cTerm}`}`;
}

// ---------------------------------------------------------------- keys and masses

/** A key as Java's Double.toString writes key / 10^4 ("1298.6103", "1000.0"), from the integer. */
export function referenceKeyText(key: number): string {
  const whole = Math.floor(key / 10_000);
  const fraction = String(key % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return `${whole}.${fraction === '' ? '0' : fraction}`;
}

/** Exact key bounds of a plain decimal text: smallest key ≥ it, largest key ≤ it. */
export function referenceTextBounds(text: string): { ceilKey: number; floorKey: number } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`reference: mass text ${text}`);
  const fraction = match[2] ?? '';
  const digits = Math.max(4, fraction.length);
  const value = BigInt(match[1] + fraction.padEnd(digits, '0'));
  const perKey = 10n ** BigInt(digits - 4);
  const floor = value / perKey;
  return { ceilKey: Number(value % perKey === 0n ? floor : floor + 1n), floorKey: Number(floor) };
}

/** The key window of a precursor with tolerances, by docs/api.md's formula (IEEE doubles). */
export function referenceWindow(
  M: number,
  below: number,
  above: number,
  unit: 'ppm' | 'Da',
): { lowKey: number; highKey: number } {
  const low = unit === 'ppm' ? (M * below) / 1e6 : below;
  const high = unit === 'ppm' ? (M * above) / 1e6 : above;
  return { lowKey: Math.ceil((M - low) * 10_000), highKey: Math.floor((M + high) * 10_000) };
}

// ---------------------------------------------------------------- the data

export interface RefPeptide {
  sequence: string;
  accsTax: { acc: string; taxId: number }[];
  /** Unmodified mass with water, 1e-10 Da. */
  units: bigint;
}

const RESIDUE_UNITS = new Map<string, bigint>(
  Object.entries(REFERENCE_RESIDUE_MASS).map(([r, m]) => [r, decimalToUnits(m)]),
);
const WATER_UNITS = decimalToUnits(REFERENCE_WATER);

/** Every distinct peptide of a FASTA (trypsin, ≤ 2 missed cleavages, 6..50 residues), with accessions and taxIds. */
export function referencePeptides(fasta: Uint8Array): RefPeptide[] {
  // Records the build skips: no sequence, or characters other than letters.
  const proteins = referenceFasta(fasta).filter((p) => /^[A-Z]+$/.test(p.sequence));
  const dataset = referenceDataset(proteins, 'trypsin', 2, 6, 50);
  const peptides: RefPeptide[] = [];
  for (const [sequence, entry] of dataset) {
    let units = WATER_UNITS;
    for (const residue of sequence) units += RESIDUE_UNITS.get(residue)!;
    peptides.push({ sequence, accsTax: entry.accessions.map((acc, i) => ({ acc, taxId: entry.taxIds[i] })), units });
  }
  return peptides;
}

// ---------------------------------------------------------------- modified forms and answers

export interface RefForm {
  key: number;
  /** Exact modified mass, 1e-10 Da. */
  units: bigint;
  peptide: RefPeptide;
  /** Count of each variable modification of the setting. */
  readonly counts: readonly number[];
  readonly proforma: string;
}

/** A form whose ProForma is written when first asked for: most forms are never answered. */
class LazyForm implements RefForm {
  #proforma: string | undefined;
  constructor(
    readonly key: number,
    /** The exact modified mass in 1e-10 Da, a safe integer. */
    private readonly exactUnits: number,
    readonly peptide: RefPeptide,
    private readonly setting: RefSetting,
    readonly counts: readonly number[],
  ) {}
  get units(): bigint {
    return BigInt(this.exactUnits);
  }
  get proforma(): string {
    this.#proforma ??= referenceProforma(this.peptide.sequence, this.setting, this.counts);
    return this.#proforma;
  }
}

export interface RefEntry {
  seq: string;
  proforma: string;
  mass: number;
  ppm?: number;
  accsTax: { acc: string; taxId: number }[];
}

export interface RefAnswer {
  totalResult: number;
  page: number;
  pageSize: number;
  result: Record<string, RefEntry[]>[];
}

/**
 * Every modified form of the data under one setting, sorted by key, sequence, ProForma; answers windows. The forms are
 * held as columns (key, exact mass, peptide, counts) and become objects only when `forms` is first read: a setting
 * expands into hundreds of thousands of forms, and a window's answer needs a few of them.
 */
export class ReferencePrecursor {
  /** Distinct keys ascending, and where each key's forms start (one extra end mark). */
  readonly keys: number[] = [];
  private starts: number[] = [];
  /** By form, in order: its key, its exact modified mass (1e-10 Da, a safe integer), its peptide, its counts. */
  private readonly formKeys: Float64Array;
  private readonly formUnits: Float64Array;
  private readonly formPeptides: Int32Array;
  private readonly formCounts: Int32Array;
  /** The count vectors `formCounts` points into. */
  private readonly vectors: (readonly number[])[] = [];
  private readonly proformas = new Map<number, string>();
  private objects: RefForm[] | undefined;

  constructor(
    private readonly peptides: readonly RefPeptide[],
    readonly setting: RefSetting,
  ) {
    const { fixed, variable, maxVariable } = setting;
    const countVectors = new CountVectors(variable, maxVariable);
    const vectorIds = new Map<readonly number[], number>();
    // Exact integers in Numbers (checked below 2^53): as exact as BigInt, and far cheaper for hundreds of thousands.
    const exact = (units: bigint) => {
      const n = Number(units);
      if (!Number.isSafeInteger(n)) throw new Error(`reference: ${units} units is not exact in a Number`);
      return n;
    };
    const variableUnits = variable.map((mod) => exact(mod.units));
    const [keys, units, peptideOf, countsOf] = [[], [], [], []] as number[][];
    peptides.forEach((peptide, p) => {
      const sequence = peptide.sequence;
      let base = exact(peptide.units);
      for (const mod of fixed) base += slotsOf(mod.site, sequence).length * exact(mod.units);
      for (const counts of countVectors.of(sequence)) {
        let u = base;
        for (let m = 0; m < counts.length; m++) u += counts[m] * variableUnits[m];
        if (u <= 0) continue;
        if (!Number.isSafeInteger(u)) throw new Error(`reference: ${sequence} weighs past 2^53 units`);
        let id = vectorIds.get(counts);
        if (id === undefined) {
          vectorIds.set(counts, (id = this.vectors.length));
          this.vectors.push(counts);
        }
        // The key: units / 10^6 rounded half-up (the remainder of exact integers is exact).
        const below = u % 1_000_000;
        keys.push((u - below) / 1_000_000 + (below >= 500_000 ? 1 : 0));
        units.push(u);
        peptideOf.push(p);
        countsOf.push(id);
      }
    });
    // By key, then sequence, then ProForma: a numeric sort by key (of key × n + index: exact below 2^53, and keeping
    // the order made among equal keys), then each run of one key, mostly of a form or two, by the rest.
    const n = keys.length;
    const order = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      order[i] = keys[i] * n + i;
      if (!Number.isSafeInteger(order[i])) throw new Error(`reference: key ${keys[i]} too large to order`);
    }
    order.sort();
    const made = new Int32Array(n);
    for (let i = 0; i < n; i++) made[i] = order[i] % n;
    const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const proformaMade = (i: number) =>
      referenceProforma(peptides[peptideOf[i]].sequence, setting, this.vectors[countsOf[i]]);
    const bySequenceThenProforma = (i: number, j: number) =>
      text(peptides[peptideOf[i]].sequence, peptides[peptideOf[j]].sequence) || text(proformaMade(i), proformaMade(j));
    for (let i = 0; i < n; ) {
      let end = i + 1;
      while (end < n && keys[made[end]] === keys[made[i]]) end++;
      if (end - i > 1) {
        const run = made.slice(i, end).sort(bySequenceThenProforma);
        for (let k = 0; k < run.length; k++) made[i + k] = run[k];
      }
      i = end;
    }
    this.formKeys = new Float64Array(n);
    this.formUnits = new Float64Array(n);
    this.formPeptides = new Int32Array(n);
    this.formCounts = new Int32Array(n);
    for (let f = 0; f < n; f++) {
      const i = made[f];
      this.formKeys[f] = keys[i];
      this.formUnits[f] = units[i];
      this.formPeptides[f] = peptideOf[i];
      this.formCounts[f] = countsOf[i];
    }
    for (let f = 0; f < n; f++) {
      if (f === 0 || this.formKeys[f] !== this.formKeys[f - 1]) {
        this.keys.push(this.formKeys[f]);
        this.starts.push(f);
      }
    }
    this.starts.push(n);
  }

  /** Number of forms. */
  get formCount(): number {
    return this.formKeys.length;
  }

  /** The exact modified mass of form `f`, in Da (as Number(forms[f].units) / 1e10). */
  massOf(f: number): number {
    return this.formUnits[f] / 1e10;
  }

  /** The ProForma of form `f`. */
  proformaOf(f: number): string {
    let proforma = this.proformas.get(f);
    if (proforma === undefined) {
      proforma = referenceProforma(
        this.peptides[this.formPeptides[f]].sequence,
        this.setting,
        this.vectors[this.formCounts[f]],
      );
      this.proformas.set(f, proforma);
    }
    return proforma;
  }

  /** Every form, as objects (made when first asked for). */
  get forms(): RefForm[] {
    this.objects ??= Array.from(
      this.formKeys,
      (key, f): RefForm =>
        new LazyForm(
          key,
          this.formUnits[f],
          this.peptides[this.formPeptides[f]],
          this.setting,
          this.vectors[this.formCounts[f]],
        ),
    );
    return this.objects;
  }

  /** First index of `keys` holding a key ≥ key. */
  private lowerBound(key: number): number {
    return lowerBound(this.keys, key);
  }

  /** Number of distinct keys in [lowKey, highKey]. */
  countKeys(lowKey: number, highKey: number): number {
    return lowKey > highKey ? 0 : this.lowerBound(highKey + 1) - this.lowerBound(lowKey);
  }

  /**
   * The envelope (less memory and duration) for a key window and page; `centre` set for mass/mz queries (ppm).
   */
  answer(lowKey: number, highKey: number, page: number, pageSize: number, centre?: number): RefAnswer {
    const first = this.lowerBound(lowKey);
    const end = lowKey > highKey ? first : this.lowerBound(highKey + 1);
    const result: Record<string, RefEntry[]>[] = [];
    for (let g = first + (page - 1) * pageSize; g < end && g < first + page * pageSize; g++) {
      const entries: RefEntry[] = [];
      for (let f = this.starts[g]; f < this.starts[g + 1]; f++) entries.push(this.entry(f, centre));
      result.push({ [referenceKeyText(this.keys[g])]: entries });
    }
    return { totalResult: end - first, page, pageSize, result };
  }

  /**
   * One entry: `mass` is the exact modified mass rounded half-up to 6 decimals; `ppm` (mass and mz queries only)
   * is (M − mass) / mass × 10^6 with the exact modified mass, rounded to 2 decimals.
   */
  private entry(f: number, centre: number | undefined): RefEntry {
    const peptide = this.peptides[this.formPeptides[f]];
    const seq = peptide.sequence;
    const proforma = this.proformaOf(f);
    const units = this.formUnits[f];
    // Half-up to 6 decimals: units / 10^4 rounded (the remainder of exact integers is exact).
    const below = units % 10_000;
    const mass = ((units - below) / 10_000 + (below >= 5_000 ? 1 : 0)) / 1e6;
    const accsTax = peptide.accsTax;
    if (centre === undefined) return { seq, proforma, mass, accsTax };
    const exact = units / 1e10;
    return { seq, proforma, mass, ppm: Math.round(((centre - exact) / exact) * 1e6 * 100) / 100, accsTax };
  }
}

/** Where two JSON values first differ, as a path with both sides (undefined when equal). */
export function firstDifference(expected: unknown, got: unknown, path = '$'): string | undefined {
  if (Array.isArray(expected) && Array.isArray(got)) {
    for (let i = 0; i < Math.max(expected.length, got.length); i++) {
      if (i >= expected.length) return `${path}[${i}]: expected nothing, got ${JSON.stringify(got[i])}`;
      if (i >= got.length) return `${path}[${i}]: expected ${JSON.stringify(expected[i])}, got nothing`;
      const d = firstDifference(expected[i], got[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (
    expected !== null &&
    got !== null &&
    typeof expected === 'object' &&
    typeof got === 'object' &&
    !Array.isArray(expected) &&
    !Array.isArray(got)
  ) {
    const e = expected as Record<string, unknown>;
    const g = got as Record<string, unknown>;
    const ek = Object.keys(e);
    const gk = Object.keys(g);
    if (ek.join('\u0000') !== gk.join('\u0000'))
      return `${path}: expected keys ${JSON.stringify(ek)}, got ${JSON.stringify(gk)}`;
    for (const k of ek) {
      const d = firstDifference(e[k], g[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(expected, got) || expected === got
    ? undefined
    : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`;
}
