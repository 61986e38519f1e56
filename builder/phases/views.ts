// The build's views (`--view Carbamidomethyl@C`, docs/format.md "Views"): the peptides that hold a residue of a fixed
// modification's letters, keyed by their mass with the modification on every such residue; or a complete view
// (`--view fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2`): every peptide, once per count of a variable
// modification, keyed by its mass with both. A view is digested like the dataset itself — into partitions of its
// own, by its own key, sampled, planned, cut and sliced the same way (builder/phases/slices.ts) — so a part of a
// partitioned build writes its slice of every view too.
import { massKey } from '../../runtime/model/massKey.js';
import { letterTable, ModificationError } from '../../runtime/model/modifications.js';
import { parseViewText, type ViewMods } from '../../runtime/model/views.js';
import { BuildError } from '../errors.js';

/** Views one build may make. */
export const MAX_VIEWS = 4;

/**
 * A view's modification: its normalised text, the residue letters it sits on, its delta in units; a complete view's
 * variable one too.
 */
export interface ViewSpec {
  fixed: string;
  letters: string;
  deltaUnits: number;
  /** A complete view's variable modification: its letters, its delta and the most of it one peptide carries. */
  variable?: { letters: string; deltaUnits: number; max: number };
}

/**
 * The view of `text` (runtime/model/views.ts: `Name@Letters`, or a complete view's
 * `fixed=Name@Letters&variable=Name@Letters&maxVariable=n`); BuildError when it is not one.
 */
export function parseView(text: string): ViewSpec {
  let mods: ViewMods;
  try {
    mods = parseViewText(text);
  } catch (e) {
    if (e instanceof ModificationError) throw new BuildError(`--view ${e.message}`);
    throw e;
  }
  const { fixed, variable } = mods;
  const spec: ViewSpec = { fixed: mods.text, letters: fixed.site.letters, deltaUnits: fixed.modification.deltaUnits };
  return variable
    ? {
        ...spec,
        variable: {
          letters: variable.spec.site.letters,
          deltaUnits: variable.spec.modification.deltaUnits,
          max: variable.max,
        },
      }
    : spec;
}

/** The views of a build's `--view` values, in the order given; BuildError for a bad or repeated one. */
export function parseViews(texts: readonly string[]): ViewSpec[] {
  if (texts.length > MAX_VIEWS) throw new BuildError(`at most ${MAX_VIEWS} --view options, got ${texts.length}`);
  const views = texts.map(parseView);
  const twice = views.find((v, i) => views.findIndex((w) => w.fixed === v.fixed) !== i);
  if (twice) throw new BuildError(`--view ${twice.fixed} is given twice`);
  return views;
}

/** A view's keys of a peptide of mass `units` (water included): none when it is not in the view. */
export type ViewKeysOf = (sequence: string, units: number) => readonly number[];

const NONE: readonly number[] = [];

/**
 * The view key function of `view`: the mass key of the peptide's mass plus the fixed delta once per residue of its
 * letters, in exact integer units — for a view of a fixed modification alone, only of peptides holding such a
 * residue; for a complete view, of every peptide, once per count of the variable modification from 0 to the fewer
 * of its sites and the view's most.
 */
export function viewKeysOf(view: ViewSpec): ViewKeysOf {
  const member = letterTable(view.letters);
  const { variable } = view;
  if (!variable) {
    return (sequence, units) => {
      let sites = 0;
      for (let i = 0; i < sequence.length; i++) sites += member[sequence.charCodeAt(i) & 127];
      return sites === 0 ? NONE : [massKey(units + sites * view.deltaUnits)];
    };
  }
  const variableMember = letterTable(variable.letters);
  return (sequence, units) => {
    let [sites, variableSites] = [0, 0];
    for (let i = 0; i < sequence.length; i++) {
      const c = sequence.charCodeAt(i) & 127;
      sites += member[c];
      variableSites += variableMember[c];
    }
    const base = units + sites * view.deltaUnits;
    const keys: number[] = [];
    for (let count = 0; count <= Math.min(variableSites, variable.max); count++)
      keys.push(massKey(base + count * variable.deltaUnits));
    return keys;
  };
}
