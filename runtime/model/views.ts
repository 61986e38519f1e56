// A view's text (docs/format.md "Views"), read alike by the build that makes a view and the reader that uses it:
// `Name@Letters`, one fixed modification on residue letters (the peptides holding them, each once); or a complete
// view's `fixed=Name@Letters&variable=Name@Letters&maxVariable=n` (every peptide, once per count of the variable one).
import { ModificationError, parseModifications, sitesOverlap, specText, type ModSpec } from './modifications.js';

/** A modification on residue letters. */
export type ResidueSpec = ModSpec & { site: { kind: 'residues'; letters: string } };

export interface ViewMods {
  /** The view's text, normalised: what the manifest's `views` and `parameters.views` name it by. */
  text: string;
  /** On every residue of its letters; adds mass. */
  fixed: ResidueSpec;
  /** A complete view's variable modification, and the most of it one peptide carries. */
  variable?: { spec: ResidueSpec; max: number };
}

/** The most variable modifications a complete view holds per peptide (as a query's maxVariable). */
export const MAX_VIEW_VARIABLE = 4;

/** A complete view's variable delta is at least this far from 0 (units, 0.01 Da): each count has a key of its own. */
export const MIN_VARIABLE_DELTA_UNITS = 100_000_000;

const EXAMPLE = 'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2';

/** A spec as a view's text writes it: a Unimod title, or a custom modification with its mass (`Name:+12.34@C`). */
function specTextWithMass(spec: ResidueSpec): string {
  const { modification } = spec;
  if (modification.accession !== undefined) return specText(spec);
  return `${modification.name}:${modification.delta.startsWith('-') ? '' : '+'}${modification.delta}@${spec.site.letters}`;
}

/** One modification on residue letters; ModificationError otherwise. */
function onResidues(text: string, what: string): ResidueSpec {
  const specs = parseModifications(text);
  const [spec] = specs;
  if (specs.length !== 1 || spec.site.kind !== 'residues')
    throw new ModificationError(
      `takes one modification on residue letters as ${what} (e.g. Carbamidomethyl@C), got "${text}"`,
    );
  return spec as ResidueSpec;
}

/** The fixed modification of a view: on residue letters, adding mass (a search bounds its unmodified masses from below). */
function fixedOf(text: string): ResidueSpec {
  const spec = onResidues(text, 'its fixed modification');
  if (spec.modification.deltaUnits <= 0)
    throw new ModificationError(
      `${specText(spec)}: the modification must add mass (its delta is ${spec.modification.delta} Da)`,
    );
  return spec;
}

/** A complete view's `fixed=…&variable=…&maxVariable=n` (no URL encoding: `+` is a plus). */
function completeView(text: string): ViewMods {
  const fields = new Map<string, string>();
  for (const part of text.split('&')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at);
    if (at <= 0 || !['fixed', 'variable', 'maxVariable'].includes(name) || fields.has(name)) {
      throw new ModificationError(
        `"${text}" is not a complete view's fixed=Name@Letters&variable=Name@Letters&maxVariable=n (e.g. ${EXAMPLE})`,
      );
    }
    fields.set(name, part.slice(at + 1));
  }
  const missing = ['fixed', 'variable', 'maxVariable'].find((name) => !fields.has(name));
  if (missing) throw new ModificationError(`"${text}" has no ${missing} (e.g. ${EXAMPLE})`);
  const fixed = fixedOf(fields.get('fixed')!);
  const variable = onResidues(fields.get('variable')!, 'its variable modification');
  const max = fields.get('maxVariable')!;
  if (!/^\d+$/.test(max) || Number(max) < 1 || Number(max) > MAX_VIEW_VARIABLE)
    throw new ModificationError(`maxVariable must be a whole number from 1 to ${MAX_VIEW_VARIABLE}, got "${max}"`);
  if (sitesOverlap(fixed.site, variable.site))
    throw new ModificationError(
      `fixed ${specText(fixed)} and variable ${specText(variable)} share a site; a site is either fixed or variable`,
    );
  if (Math.abs(variable.modification.deltaUnits) < MIN_VARIABLE_DELTA_UNITS) {
    throw new ModificationError(
      `variable ${specText(variable)}: its delta (${variable.modification.delta} Da) must be at least 0.01 Da from 0, so that each count has a mass key of its own`,
    );
  }
  const normalised = `fixed=${specTextWithMass(fixed)}&variable=${specTextWithMass(variable)}&maxVariable=${Number(max)}`;
  return { text: normalised, fixed, variable: { spec: variable, max: Number(max) } };
}

/** The modifications of a view's text, normalised; ModificationError saying what is wrong. */
export function parseViewText(text: string): ViewMods {
  if (text.includes('=')) return completeView(text);
  const fixed = fixedOf(text);
  return { text: specTextWithMass(fixed), fixed };
}
