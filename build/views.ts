// The build's views (`--view Carbamidomethyl@C`, FORMAT.md "Views"): the peptides that hold a residue of a fixed
// modification's letters, keyed by their mass with the modification on every such residue. A view is digested like
// the dataset itself — into partitions of its own, by its own key, sampled, planned, cut and sliced the same way
// (build/slices.ts) — so a part of a partitioned build writes its slice of every view too.
import { massKey } from '../runtime/model/massKey.js';
import { letterTable, ModificationError, parseModifications, specText } from '../runtime/model/modifications.js';
import { BuildError } from './fasta.js';

/** Views one build may make. */
export const MAX_VIEWS = 4;

/** A view's modification: its `Name@Letters` text, the residue letters it sits on, its delta in units. */
export interface ViewSpec {
  fixed: string;
  letters: string;
  deltaUnits: number;
}

/** The view of `text` (`Name@Letters`: one modification on residue letters); BuildError when it is not one. */
export function parseView(text: string): ViewSpec {
  let specs;
  try {
    specs = parseModifications(text);
  } catch (e) {
    if (e instanceof ModificationError) throw new BuildError(`--view ${e.message}`);
    throw e;
  }
  const [spec] = specs;
  if (specs.length !== 1 || spec.site.kind !== 'residues') {
    throw new BuildError(`--view takes one modification on residue letters (e.g. Carbamidomethyl@C), got "${text}"`);
  }
  // A precursor search bounds a hypothesis's masses from below by its unmodified residues: a view's keys may lie
  // above its peptides' unmodified masses, not below.
  if (spec.modification.deltaUnits <= 0) throw new BuildError(`--view ${specText(spec)}: the modification must add mass (its delta is ${spec.modification.delta} Da)`);
  // A custom modification keeps its mass in the name, so that a reader can weigh it: `Name:+12.34@C`.
  const { modification } = spec;
  const fixed = modification.accession === undefined ? `${modification.name}:+${modification.delta}@${spec.site.letters}` : specText(spec);
  return { fixed, letters: spec.site.letters, deltaUnits: modification.deltaUnits };
}

/** The views of a build's `--view` values, in the order given; BuildError for a bad or repeated one. */
export function parseViews(texts: readonly string[]): ViewSpec[] {
  if (texts.length > MAX_VIEWS) throw new BuildError(`at most ${MAX_VIEWS} --view options, got ${texts.length}`);
  const views = texts.map(parseView);
  const twice = views.find((v, i) => views.findIndex((w) => w.fixed === v.fixed) !== i);
  if (twice) throw new BuildError(`--view ${twice.fixed} is given twice`);
  return views;
}

/** A view's key of a peptide of mass `units` (water included), or undefined when it holds no residue of the view's letters. */
export type ViewKeyOf = (sequence: string, units: number) => number | undefined;

/**
 * The view key function of `view`: the mass key of the peptide's mass plus the delta once per residue of the view's
 * letters, in exact integer units.
 */
export function viewKeyOf(view: ViewSpec): ViewKeyOf {
  const member = letterTable(view.letters);
  return (sequence, units) => {
    let sites = 0;
    for (let i = 0; i < sequence.length; i++) sites += member[sequence.charCodeAt(i) & 127];
    return sites === 0 ? undefined : massKey(units + sites * view.deltaUnits);
  };
}
