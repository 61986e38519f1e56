// An annotated spectrum: the peaks a PSM was scored against, and each of its b and y ions with the peak it matched,
// as scoring matched them (score.ts) — what a viewer draws and labels.
import { fragmentIons, type Carried, type Fragment } from './fragments.js';
import { PRECURSOR_PEAK_RANGE } from './identify.js';
import { fragmentCharges } from './psms.js';
import { matchingPeak, topPeaks, type FragmentTolerance, type Peaks } from './score.js';

/** An ion and the index of the scored peak it matched (-1: none). */
export interface AnnotatedIon extends Fragment {
  peak: number;
}

export interface Annotation {
  /** The peaks scored: the spectrum's most intense, the precursor's left out, ascending m/z. */
  peaks: Peaks;
  ions: AnnotatedIon[];
}

/** How the spectrum was scored: its top peaks, fragment tolerance and highest fragment charge. */
export interface AnnotationSettings {
  topPeaks: number;
  fragmentTolerance: FragmentTolerance;
  maxFragmentCharge: number;
}

/** The annotation of a peptide (`sequence` carrying `carried`) at precursor `charge` in a spectrum's raw peaks. */
export function annotate(
  raw: Pick<Peaks, 'mz' | 'intensity'>,
  precursorMz: number,
  sequence: string,
  carried: Carried,
  charge: number,
  settings: AnnotationSettings,
): Annotation {
  const peaks = topPeaks(raw.mz, raw.intensity, settings.topPeaks, { mz: precursorMz, da: PRECURSOR_PEAK_RANGE });
  const ions = fragmentIons(sequence, carried, fragmentCharges(charge, settings.maxFragmentCharge)).map((ion) => ({
    ...ion,
    peak: matchingPeak(peaks, ion.mz, settings.fragmentTolerance),
  }));
  return { peaks, ions };
}
