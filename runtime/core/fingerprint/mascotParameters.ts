// Mascot's embedded search parameters: the `KEY=value` lines a peak list written for Mascot carries at its head
// (Matrix Science, "Data file format": www.matrixscience.com/help/data_file_help.html). Mascot lets them override
// its search form. Here a parameter either names nothing the answer depends on (read past; COM or TITLE titles the
// list), or says what the query must also say (the mass type, the peaks' charge, the tolerance), or is refused: a
// search parameter read from a file and not applied would answer another search than the one the file asks for.
import type { EmbeddedParameter } from './peakText.js';
import type { PeakIon } from './types.js';

/** What the query says that embedded parameters may also say. */
export interface EmbeddedQuery {
  ion: PeakIon;
  tolerance: { unit: 'ppm' | 'Da'; below: number; above: number };
}

/** Keys that change nothing in the answer: who searched, how Mascot reports, the format's name (COM titles). */
const DESCRIPTIVE = new Set(['USERNAME', 'USEREMAIL', 'FORMAT', 'REPORT', 'REPTYPE']);

/** What the query calls the parameters it has instead of Mascot's, for the refusal's advice. */
const INSTEAD: Record<string, string> = {
  CLE: "the dataset's enzyme (set when it was built)",
  PFA: "the dataset's missed cleavages (set when it was built)",
  DB: 'the dataset the query searches',
  MODS: 'fixed',
  IT_MODS: 'variable',
  TAXONOMY: 'taxon',
};

/** Mascot's tolerance units, in ours: a factor to the query's unit. */
const TOLERANCE_UNITS: Record<string, { unit: 'ppm' | 'Da'; factor: number }> = {
  DA: { unit: 'Da', factor: 1 },
  MMU: { unit: 'Da', factor: 1e-3 },
  PPM: { unit: 'ppm', factor: 1 },
  '%': { unit: 'ppm', factor: 1e4 },
};

/** An ion as a charge, [M+H]+ being charge 1 (neutral: 0). */
const charged = (ion: PeakIon) => (ion === 'neutral' ? 0 : ion === 'mh' ? 1 : ion);

const ionText = (ion: PeakIon) =>
  ion === 'neutral' ? 'neutral masses (ion=neutral)' : ion === 'mh' || ion === 1 ? '[M+H]+ (ion=mh)' : `charge ${ion}`;

/**
 * The title the parameters give the list (COM), or a message naming the first line the query cannot follow: a
 * parameter that disagrees with the query, or one it does not read from files.
 */
export function embeddedTitle(
  parameters: readonly EmbeddedParameter[],
  query: EmbeddedQuery,
): { title?: string } | { error: string } {
  let title: string | undefined;
  const unit = parameters.find((p) => p.key === 'TOLU');
  for (const { key, value, line } of parameters) {
    const at = `line ${line}: ${key}=${value}`;
    const v = value.trim();
    // TITLE names an MS/MS record in Mascot's MGF; at a list's head it can only name the list, as COM does.
    if (key === 'COM' || key === 'TITLE') title = v;
    else if (DESCRIPTIVE.has(key)) continue;
    else if (key === 'SEARCH') {
      if (v.toUpperCase() !== 'PMF')
        return { error: `${at} asks for another search than a peptide mass fingerprint (SEARCH=PMF)` };
    } else if (key === 'MASS') {
      if (!/^mono(isotopic)?$/i.test(v))
        return { error: `${at}: the peaks are matched as monoisotopic masses (MASS=Monoisotopic) only` };
    } else if (key === 'CHARGE') {
      const ion = ionOf(v);
      if (ion === undefined || charged(ion) !== charged(query.ion))
        return {
          error: `${at} says the peaks are ${ion === undefined ? 'ions this fingerprint does not read (1+, 2+, … or Mr)' : ionText(ion)}, but the query reads them as ${ionText(query.ion)}: ask for the same, or remove the line`,
        };
    } else if (key === 'TOL') {
      const problem = toleranceProblem(v, unit?.value.trim(), query.tolerance);
      if (problem) return { error: `${at}: ${problem}` };
    } else if (key === 'TOLU') {
      if (!parameters.some((p) => p.key === 'TOL')) return { error: `${at} without TOL: give both, or neither` };
    } else {
      const instead = INSTEAD[key];
      return {
        error: `${at} is a Mascot search parameter a fingerprint does not read from the file${instead ? `; ${instead} stands for it` : ''}: remove the line`,
      };
    }
  }
  return title === undefined || title === '' ? {} : { title };
}

/** A CHARGE value as a peak ion: `Mr` neutral, `1+` [M+H]+, `n+` charge n; undefined otherwise (negative ions). */
function ionOf(value: string): PeakIon | undefined {
  if (/^mr$/i.test(value)) return 'neutral';
  const charge = /^(\d+)\+$/.exec(value);
  if (!charge || Number(charge[1]) < 1) return undefined;
  return Number(charge[1]) === 1 ? 'mh' : Number(charge[1]);
}

/** Why TOL (with TOLU, or the query's unit when none) is not the query's tolerance; undefined when it is. */
function toleranceProblem(
  value: string,
  unitText: string | undefined,
  tolerance: EmbeddedQuery['tolerance'],
): string | undefined {
  const given = Number(value);
  if (!(given > 0) || !/^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) return 'not a tolerance (a number > 0)';
  const unit = unitText === undefined ? { unit: tolerance.unit, factor: 1 } : TOLERANCE_UNITS[unitText.toUpperCase()];
  if (!unit) return `TOLU=${unitText} is not a unit this fingerprint reads (Da, mmu, ppm or %)`;
  const asked = given * unit.factor;
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(a, b);
  if (unit.unit === tolerance.unit && close(asked, tolerance.below) && close(asked, tolerance.above)) return undefined;
  const ours =
    tolerance.below === tolerance.above
      ? `±${tolerance.below} ${tolerance.unit}`
      : `−${tolerance.below}/+${tolerance.above} ${tolerance.unit}`;
  return `the file asks for ±${asked} ${unit.unit}, the query for ${ours}: ask for tolerance ${asked} and unit ${unit.unit}, or remove the line`;
}
