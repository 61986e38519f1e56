// Modifications of a query: `Name@Sites` lists parsed into exact mass deltas and sites (Unimod titles from
// unimod.ts, `UNIMOD:35`, or a custom `Name:+12.3456`), and the slots a site occupies in a peptide.
import { RESIDUE_UNITS, UNITS_PER_DA } from './chemistry.js';
import { UNIMOD_ROWS } from './unimod.js';

export interface Modification {
  /** Unimod title, or the name of a custom modification. */
  name: string;
  /** Unimod accession (record_id); undefined for a custom modification. */
  accession?: number;
  /** Monoisotopic delta as exact decimal text with its sign ("57.021464", "-17.026549"). */
  delta: string;
  /** The delta in integer units of 1e-10 Da. */
  deltaUnits: number;
}

/**
 * Where a modification sits. A peptide has a slot per residue plus its two termini: `residues` takes every
 * residue of the given letters, `terminus` the N- or C-terminus itself, `terminal residue` the first (N) or
 * last (C) residue when it is the given letter (pyro-Glu on an N-terminal Q), `protein terminus` the N-terminus of
 * a peptide that starts a protein (acetylation of protein N-termini), only where it does.
 */
export type Site =
  | { kind: 'residues'; letters: string }
  | { kind: 'terminus'; end: 'N' | 'C' }
  | { kind: 'terminal residue'; end: 'N' | 'C'; letter: string }
  | { kind: 'protein terminus'; end: 'N' };

/** One modification at one site, as a query gives it. */
export interface ModSpec {
  modification: Modification;
  site: Site;
}

/** A list that cannot be read: the message says which item and why. */
export class ModificationError extends Error {}

/** Items a list may hold. */
export const MAX_MODIFICATIONS = 8;

/** Signed exact decimal text ("-17.026549") to integer units of 1e-10 Da; undefined past 10 decimals. */
export function deltaUnits(text: string): number | undefined {
  const match = /^([+-]?)(\d+)(?:\.(\d{1,10}))?$/.exec(text);
  if (!match) return undefined;
  const units = Number(match[2]) * UNITS_PER_DA + Number((match[3] ?? '').padEnd(10, '0'));
  return match[1] === '-' ? -units : units;
}

const KNOWN: readonly Modification[] = UNIMOD_ROWS.map(([accession, name, delta]) => ({
  name,
  accession,
  delta,
  deltaUnits: deltaUnits(delta)!,
}));
const BY_TITLE = new Map(KNOWN.map((m) => [m.name.toLowerCase(), m]));
const BY_ACCESSION = new Map(KNOWN.map((m) => [m.accession, m]));

/** Largest custom delta accepted, in Da. */
const MAX_CUSTOM_DELTA = 10_000;

function resolve(name: string, item: string): Modification {
  const known =
    BY_TITLE.get(name.toLowerCase()) ??
    (/^unimod:\d+$/i.test(name) ? BY_ACCESSION.get(Number(name.slice(7))) : undefined);
  if (known) return known;
  const custom = /^([^[\]{}<>@,:]+):([+-]\d+(?:\.\d+)?)$/.exec(name);
  if (!custom && /^[^:]+: \d/.test(name)) {
    throw new ModificationError(
      `${JSON.stringify(item)} reads as "${name}": a + in a URL's query is a space; write it as %2B (Name:%2B12.3456)`,
    );
  }
  if (!custom)
    throw new ModificationError(
      `unknown modification ${JSON.stringify(name)} in ${JSON.stringify(item)}: use a Unimod title (e.g. Carbamidomethyl, Oxidation, Phospho), UNIMOD:<accession>, or Name:+12.3456 for a custom mass`,
    );
  const units = deltaUnits(custom[2]);
  if (units === undefined || Math.abs(units) > MAX_CUSTOM_DELTA * UNITS_PER_DA) {
    throw new ModificationError(
      `custom mass ${custom[2]} in ${JSON.stringify(item)} must be a signed number within ±${MAX_CUSTOM_DELTA} Da with at most 10 decimals`,
    );
  }
  return { name: custom[1].trim(), delta: custom[2].replace(/^\+/, ''), deltaUnits: units };
}

const isResidue = (letter: string) => /^[A-Z]$/.test(letter) && RESIDUE_UNITS[letter.charCodeAt(0)] >= 0;

function site(text: string, item: string): Site {
  const protein = /^protein[ _-]?([NC])-?term$/i.exec(text);
  if (protein) {
    if (protein[1].toUpperCase() === 'C')
      throw new ModificationError(
        `${JSON.stringify(item)}: datasets record which peptides start a protein, not which end one; Protein N-term only`,
      );
    return { kind: 'protein terminus', end: 'N' };
  }
  const terminus = /^(?:([A-Za-z])@)?([NC])-?term$/i.exec(text);
  if (terminus) {
    const end = terminus[2].toUpperCase() as 'N' | 'C';
    if (terminus[1] === undefined) return { kind: 'terminus', end };
    const letter = terminus[1].toUpperCase();
    if (!isResidue(letter))
      throw new ModificationError(
        `${JSON.stringify(letter)} in ${JSON.stringify(item)} is not a residue with a defined mass`,
      );
    return { kind: 'terminal residue', end, letter };
  }
  const letters = text.toUpperCase();
  const bad = [...letters].find((c) => !isResidue(c));
  if (letters === '' || bad !== undefined) {
    throw new ModificationError(
      `site ${JSON.stringify(text)} in ${JSON.stringify(item)} is not residue letters (e.g. STY), N-term, C-term, Protein N-term or a residue at a terminus (Q@N-term)`,
    );
  }
  return { kind: 'residues', letters: [...new Set(letters)].sort().join('') };
}

/** One modification named twice (a title and its UNIMOD: accession, or a custom one repeated). */
const sameModification = (a: Modification, b: Modification) => a.name === b.name && a.delta === b.delta;

/** `Name@Sites` items separated by commas; the same modification on residues twice is one item of both sites. */
export function parseModifications(text: string): ModSpec[] {
  const specs: ModSpec[] = [];
  const items = text.split(',').map((item) => item.trim());
  if (items.length > MAX_MODIFICATIONS)
    throw new ModificationError(`${items.length} modifications given; at most ${MAX_MODIFICATIONS}`);
  for (const item of items) {
    const at = item.indexOf('@');
    if (item === '' || at <= 0 || at === item.length - 1)
      throw new ModificationError(
        `${JSON.stringify(item)} is not Name@Sites (e.g. Carbamidomethyl@C, Oxidation@M, TMT6plex@N-term)`,
      );
    const spec = { modification: resolve(item.slice(0, at).trim(), item), site: site(item.slice(at + 1).trim(), item) };
    const same = specs.find((s) => sameModification(s.modification, spec.modification));
    if (same && same.site.kind === 'residues' && spec.site.kind === 'residues') {
      same.site = { kind: 'residues', letters: [...new Set(same.site.letters + spec.site.letters)].sort().join('') };
    } else if (
      specs.some((s) => sameModification(s.modification, spec.modification) && siteText(s.site) === siteText(spec.site))
    ) {
      throw new ModificationError(`${JSON.stringify(item)} is given twice`);
    } else {
      specs.push(spec);
    }
  }
  return specs;
}

/** A site as a query writes it: `STY`, `N-term`, `Q@N-term`, `Protein N-term`. */
export function siteText(site: Site): string {
  if (site.kind === 'residues') return site.letters;
  if (site.kind === 'protein terminus') return 'Protein N-term';
  return site.kind === 'terminus' ? `${site.end}-term` : `${site.letter}@${site.end}-term`;
}

/** `Name@Sites` of a spec. */
export const specText = (spec: ModSpec) => `${spec.modification.name}@${siteText(spec.site)}`;

/** Letters a site may put a modification on (the residue slots it can take); '' for a bare terminus. */
const residueLetters = (site: Site) =>
  site.kind === 'residues' ? site.letters : site.kind === 'terminal residue' ? site.letter : '';

/** The terminus slot a site takes (a protein's N-terminus is its first peptide's), or none. */
const terminusOf = (site: Site) =>
  site.kind === 'terminus' || site.kind === 'protein terminus' ? site.end : undefined;

/** Whether two sites can ever take the same slot of a peptide (a conflict for a fixed modification). */
export function sitesOverlap(a: Site, b: Site): boolean {
  const [ta, tb] = [terminusOf(a), terminusOf(b)];
  if (ta || tb) return ta === tb;
  return [...residueLetters(a)].some((c) => residueLetters(b).includes(c));
}

const letterTables = new Map<string, Uint8Array>();

/** 1 at the char codes of `letters`, 0 elsewhere (memoized: queries use few letter sets). */
export function letterTable(letters: string): Uint8Array {
  let table = letterTables.get(letters);
  if (!table) {
    table = new Uint8Array(128);
    for (const c of letters) table[c.charCodeAt(0)] = 1;
    if (letterTables.size < 1000) letterTables.set(letters, table);
  }
  return table;
}

/** Whether residue `i` of `sequence` is a slot of `site`. */
export function residueSlot(site: Site, sequence: string, i: number): boolean {
  if (site.kind === 'residues') return site.letters.includes(sequence[i]);
  if (site.kind === 'terminus' || site.kind === 'protein terminus') return false;
  return sequence[i] === site.letter && i === (site.end === 'N' ? 0 : sequence.length - 1);
}

/**
 * A union of sites compiled for counting slots: the residue letters (sorted, unique), the termini named, the
 * residues at a terminus whose letter is not among those letters (else they are counted with the letters), and
 * whether the N-terminus of a peptide that starts a protein is a slot that no named terminus counts already.
 */
export interface SlotSet {
  letters: string;
  termini: number;
  terminal: { end: 'N' | 'C'; letter: string }[];
  proteinStart: boolean;
}

export function slotSet(sites: readonly Site[]): SlotSet {
  const letters = [...new Set(sites.flatMap((s) => (s.kind === 'residues' ? [...s.letters] : [])))].sort().join('');
  const named = new Set(sites.flatMap((s) => (s.kind === 'terminus' ? [s.end] : [])));
  const terminal = sites.flatMap((s) =>
    s.kind === 'terminal residue' && !letters.includes(s.letter) ? [{ end: s.end, letter: s.letter }] : [],
  );
  const proteinStart = !named.has('N') && sites.some((s) => s.kind === 'protein terminus');
  return { letters, termini: named.size, terminal, proteinStart };
}

const compiledSites = new WeakMap<Site, SlotSet>();

/** The SlotSet of one site, compiled once per site. */
export function siteSlots(site: Site): SlotSet {
  let set = compiledSites.get(site);
  if (!set) compiledSites.set(site, (set = slotSet([site])));
  return set;
}

/** Slots of a set's residues-at-a-terminus in a peptide with these first and last residues (`single`: one residue, both). */
export function terminalSlots(set: SlotSet, first: string, last: string, single: boolean): number {
  let atFirst = false;
  let atLast = false;
  for (const { end, letter } of set.terminal) {
    if (end === 'N' && first === letter) atFirst = true;
    if (end === 'C' && last === letter) atLast = true;
  }
  return (atFirst ? 1 : 0) + (atLast && !(single && atFirst) ? 1 : 0);
}

/**
 * Slots that a set can take in a peptide given as its letters, `letters[start..end)` (character codes, as a Shard
 * holds them): the termini it names, residues of its letters, residues at a terminus, and the protein's N-terminus
 * when `startsProtein`. The set's letter table is looked up once here, not per peptide.
 */
export function slotCounter(
  set: SlotSet,
): (letters: Uint8Array, start: number, end: number, startsProtein?: boolean) => number {
  const table = set.letters ? letterTable(set.letters) : undefined;
  return (letters, start, end, startsProtein = false) => {
    let n = set.termini + (set.proteinStart && startsProtein ? 1 : 0);
    if (table) for (let i = start; i < end; i++) n += table[letters[i] & 127];
    if (set.terminal.length === 0) return n;
    return (
      n +
      terminalSlots(set, String.fromCharCode(letters[start]), String.fromCharCode(letters[end - 1]), end - start === 1)
    );
  };
}

/** slotCounter's count for `sequence` (capital letters). */
export const slotsIn = (set: SlotSet, sequence: string, startsProtein = false): number =>
  slotCounter(set)(
    Uint8Array.from(sequence, (c) => c.charCodeAt(0)),
    0,
    sequence.length,
    startsProtein,
  );

/**
 * Slots of `sequence` that at least one of `sites` can take: the size of their union (a terminus counts once
 * however many sites name it). With one site, the number of places it can be.
 */
export const slotCount = (sites: readonly Site[], sequence: string, startsProtein = false): number =>
  slotsIn(slotSet(sites), sequence, startsProtein);
