// ProForma 2.0 (HUPO-PSI) text of a modified peptide: fixed modifications as global `<[Name]@C>` tags, variable
// ones localised where their count fills every possible site and `[Name]^n?` otherwise, terminal ones as
// `[Name]-PEPTIDE` / `PEPTIDE-[Name]`. The plain sequence when nothing is modified.
import { letterTable, siteSlots, slotCounter, type ModSpec, type Site } from './modifications.js';

/** A variable modification and how many of its sites carry it in this peptide. */
export interface Applied {
  spec: ModSpec;
  count: number;
}

/** The bracket text of a modification: its Unimod title (prefixed `U:` when it holds a colon), or a signed mass. */
export function proformaTag({ modification }: ModSpec): string {
  if (modification.accession === undefined)
    return modification.delta.startsWith('-') ? modification.delta : `+${modification.delta}`;
  return modification.name.includes(':') ? `U:${modification.name}` : modification.name;
}

/**
 * Locations of a site in a global fixed-modification tag: `C`, `S,T`, `N-term`, `N-term:Q`; none for the protein's
 * N-terminus, which only some occurrences of a peptide carry: written in place (`[Acetyl]-PEPTIDE`) where it does.
 */
function globalLocations(site: Site): string[] {
  if (site.kind === 'residues') return [...site.letters];
  if (site.kind === 'protein terminus') return [];
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
  ).text(
    sequence,
    variable.map((v) => v.count),
  );
}

/**
 * One global tag per fixed modification (the query's items of one name merged, in first-given order) listing every
 * site the query gives it, to be written when the peptide holds at least one of them.
 */
function globalTags(fixed: readonly ModSpec[]) {
  const global = fixed.filter((spec) => spec.site.kind !== 'protein terminus');
  return [...byTag(global.map((spec) => ({ spec, value: spec })))].map(([tag, specs]) => ({
    text: `<[${tag}]@${specs.flatMap((spec) => globalLocations(spec.site)).join(',')}>`,
    slots: specs.map((spec) => slotCounter(siteSlots(spec.site))),
  }));
}

/**
 * ProForma of a localised form of `sequence`: fixed modifications as global tags, variable spec `spec` on `slot` of
 * each placement (slot -1 the N-terminus, `sequence.length` the C-terminus), in slot order.
 */
export function localisedProforma(
  sequence: string,
  fixed: readonly ModSpec[],
  variable: readonly ModSpec[],
  placed: readonly { spec: number; slot: number }[],
  startsProtein = false,
): string {
  const letters = Uint8Array.from(sequence, (c) => c.charCodeAt(0));
  const tags = globalTags(fixed)
    .filter((g) => g.slots.some((slotsOf) => slotsOf(letters, 0, letters.length) > 0))
    .map((g) => g.text);
  const at = (slot: number) =>
    placed
      .filter((p) => p.slot === slot)
      .map((p) => `[${proformaTag(variable[p.spec])}]`)
      .join('');
  const nTerm = (startsProtein ? proteinStartTags(fixed) : '') + at(-1);
  const cTerm = at(sequence.length);
  const residues = [...sequence].map((c, i) => c + at(i)).join('');
  return `${tags.join('')}${nTerm && `${nTerm}-`}${residues}${cTerm && `-${cTerm}`}`;
}

/** The in-place tags of the fixed modifications of the protein's N-terminus (`[Acetyl]`), for a peptide starting one. */
const proteinStartTags = (fixed: readonly ModSpec[]) =>
  fixed
    .filter((spec) => spec.site.kind === 'protein terminus')
    .map((spec) => `[${proformaTag(spec)}]`)
    .join('');

/** Where text is written: ASCII text, and runs of character codes (a sequence's letters). An AsciiWriter is one. */
export interface TextOut {
  write(text: string): void;
  copy(bytes: Uint8Array, start: number, end: number): void;
}

/** ProForma of one query's candidates (sequences of capital letters): as a string, or written straight into a TextOut (no string made). */
export interface ProformaWriter {
  /** `startsProtein`: the candidate is a protein's first peptide (its N-terminus takes protein N-term sites). */
  text(sequence: string, counts: readonly number[], startsProtein?: boolean): string;
  write(out: TextOut, sequence: string, counts: readonly number[], startsProtein?: boolean): void;
  /** The peptide's letters are `letters[start..end)`, as a Shard holds them: its sequence is not made a string. */
  writeLetters(
    out: TextOut,
    letters: Uint8Array,
    start: number,
    end: number,
    counts: readonly number[],
    startsProtein?: boolean,
  ): void;
}

/** A TextOut gathering a string. */
class StringOut implements TextOut {
  text = '';
  write(text: string): void {
    this.text += text;
  }
  copy(bytes: Uint8Array, start: number, end: number): void {
    this.text += String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
}

/** A sequence's character codes, in a buffer reused by every call (its caller is done with it before the next). */
let scratch = new Uint8Array(64);
function lettersOf(sequence: string): Uint8Array {
  if (scratch.length < sequence.length) scratch = new Uint8Array(2 * sequence.length);
  for (let i = 0; i < sequence.length; i++) scratch[i] = sequence.charCodeAt(i);
  return scratch;
}

/**
 * ProForma text for one query's modifications, compiled once: tags, locations and site slots are worked out
 * here, so each candidate (a sequence and a count per variable spec) costs only its own slot counts.
 */
export function proformaWriter(fixed: readonly ModSpec[], variable: readonly ModSpec[]): ProformaWriter {
  const globals = globalTags(fixed);
  const startTags = proteinStartTags(fixed);
  const slots = variable.map((spec) => slotCounter(siteSlots(spec.site)));
  const tags = variable.map(proformaTag);
  const bracketed = tags.map((tag) => `[${tag}]`);
  // Of residue sites, which letters take the tag (1 at their character codes); undefined for terminal sites.
  const residueTables = variable.map(({ site }) => (site.kind === 'residues' ? letterTable(site.letters) : undefined));
  const ends = variable.map(({ site }) => (site.kind === 'residues' ? undefined : site.end)); // of terminal sites
  // Plain loops and no function made per peptide: most candidates of most queries take the first return, and a
  // batch match writes millions.
  const writeLetters = (
    out: TextOut,
    letters: Uint8Array,
    start: number,
    end: number,
    counts: readonly number[],
    startsProtein = false,
  ): void => {
    for (const g of globals) {
      for (const slotsOf of g.slots) {
        if (slotsOf(letters, start, end) > 0) {
          out.write(g.text);
          break;
        }
      }
    }
    const startTagged = startsProtein && startTags !== '';
    let unmodified = true;
    for (const count of counts) if (count !== 0) unmodified = false;
    if (unmodified) {
      if (startTagged) out.write(`${startTags}-`);
      return out.copy(letters, start, end);
    }

    // A variable modification is localised when its count fills every slot of its site in the peptide; the others
    // are written before the sequence, counts of one tag added up, in the order their tags first come.
    const localised: boolean[] = [];
    for (let i = 0; i < counts.length; i++)
      localised.push(counts[i] > 0 && counts[i] === slots[i](letters, start, end, startsProtein));
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] === 0 || localised[i] || tagCountedBefore(tags, counts, localised, i)) continue;
      let n = 0;
      for (let j = i; j < counts.length; j++) if (tags[j] === tags[i] && counts[j] > 0 && !localised[j]) n += counts[j];
      out.write(bracketed[i]);
      out.write(n === 1 ? '?' : `^${n}?`);
    }
    let nTerm = startTagged;
    if (startTagged) out.write(startTags);
    for (let i = 0; i < counts.length; i++) {
      if (!localised[i] || ends[i] !== 'N') continue;
      out.write(bracketed[i]);
      nTerm = true;
    }
    if (nTerm) out.write('-');
    // The sequence, each residue followed by the tags of the localised modifications on its letter.
    let from = start;
    for (let r = start; r < end; r++) {
      for (let i = 0; i < counts.length; i++) {
        const table = residueTables[i];
        if (!localised[i] || table === undefined || table[letters[r] & 127] === 0) continue;
        if (from <= r) out.copy(letters, from, r + 1);
        from = r + 1;
        out.write(bracketed[i]);
      }
    }
    out.copy(letters, from, end);
    let cTerm = false;
    for (let i = 0; i < counts.length; i++) {
      if (!localised[i] || ends[i] !== 'C') continue;
      out.write(cTerm ? bracketed[i] : `-${bracketed[i]}`);
      cTerm = true;
    }
  };
  const write = (out: TextOut, sequence: string, counts: readonly number[], startsProtein = false) =>
    writeLetters(out, lettersOf(sequence), 0, sequence.length, counts, startsProtein);
  return {
    write,
    writeLetters,
    text: (sequence, counts, startsProtein = false) => {
      const out = new StringOut();
      write(out, sequence, counts, startsProtein);
      return out.text;
    },
  };
}

/** Whether an unlocalised count of tag i's tag came before i (its text is written there, with i's count in it). */
function tagCountedBefore(
  tags: readonly string[],
  counts: readonly number[],
  localised: readonly boolean[],
  i: number,
): boolean {
  for (let j = 0; j < i; j++) if (tags[j] === tags[i] && counts[j] > 0 && !localised[j]) return true;
  return false;
}
