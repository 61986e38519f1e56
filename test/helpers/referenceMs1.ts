// An independent reading of the peak lists the fingerprint tests send: an mzML file's MS1 spectra (the whole text,
// regular expressions, Node's Buffer for base64 and zlib for compressed arrays) and an MGF file's records (split on
// BEGIN IONS … END IONS, peak lines as numbers), written from the formats' definitions, not from the readers'.
import { gunzipSync, inflateSync } from 'node:zlib';

/** A list as the fingerprint reads it: its title and peaks (ascending m/z for mzML, as given for MGF). */
export interface RefList {
  title?: string;
  mz: number[];
  intensity?: number[];
}

/** The text of a file's bytes, gunzipped when they are gzip. */
export const textOf = (bytes: Uint8Array): string =>
  (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : Buffer.from(bytes)).toString('utf8');

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The values of one binaryDataArray element's text. */
function arrayValues(array: string): number[] {
  const base64 = /<binary>([^<]*)<\/binary>/.exec(array)?.[1] ?? '';
  let bytes = Buffer.from(base64, 'base64');
  if (array.includes('MS:1000574')) bytes = inflateSync(bytes);
  const wide = array.includes('MS:1000523');
  const values: number[] = [];
  for (let at = 0; at < bytes.length; at += wide ? 8 : 4)
    values.push(wide ? bytes.readDoubleLE(at) : bytes.readFloatLE(at));
  return values;
}

/** An mzML spectrum element's ms level: its own cvParam, or its referenced group's MS1 spectrum term. */
function levelOf(spectrum: string, groups: Map<string, string>): number | undefined {
  const own = /accession="MS:1000511"[^>]*value="(\d+)"/.exec(spectrum)?.[1];
  if (own !== undefined) return Number(own);
  const refs = [...spectrum.matchAll(/<referenceableParamGroupRef ref="([^"]*)"/g)].map((m) => groups.get(m[1]) ?? '');
  return [spectrum, ...refs].some((text) => text.includes('MS:1000579')) ? 1 : undefined;
}

/** The MS1 spectra of an mzML text: native id, representation and peaks sorted by m/z. */
export function referenceMs1(text: string): (RefList & { representation?: 'centroid' | 'profile' })[] {
  const groups = new Map(
    [...text.matchAll(/<referenceableParamGroup id="([^"]*)">([\s\S]*?)<\/referenceableParamGroup>/g)].map((m) => [
      m[1],
      m[2],
    ]),
  );
  return [...text.matchAll(/<spectrum\s[^>]*>[\s\S]*?<\/spectrum>/g)].flatMap(([spectrum]) => {
    if (levelOf(spectrum, groups) !== 1) return [];
    const head = /<spectrum\s[^>]*>/.exec(spectrum)![0];
    const arrays = [...spectrum.matchAll(/<binaryDataArray[\s>][\s\S]*?<\/binaryDataArray>/g)].map((m) => m[0]);
    const mzs = arrayValues(arrays.find((a) => a.includes('MS:1000514'))!);
    const intensities = arrayValues(arrays.find((a) => a.includes('MS:1000515'))!);
    const order = mzs.map((_, i) => i).sort((a, b) => mzs[a] - mzs[b]);
    const representation = spectrum.includes('MS:1000127')
      ? 'centroid'
      : spectrum.includes('MS:1000128')
        ? 'profile'
        : undefined;
    return [
      {
        title: attribute(head, 'id'),
        mz: order.map((i) => mzs[i]),
        intensity: order.map((i) => intensities[i]),
        ...(representation && { representation }),
      },
    ];
  });
}

/** The records of an MGF text: TITLE, and the m/z and intensity of each peak line (the rest of a line ignored). */
export function referenceMgf(text: string): RefList[] {
  return [...text.matchAll(/^BEGIN IONS\s*$([\s\S]*?)^END IONS\s*$/gm)].map(([, body]) => {
    const lines = body
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !/^[#;!/]/.test(l));
    // The title without the spaces around it, as the MGF reader of a match gives it too.
    const title = lines
      .find((l) => l.startsWith('TITLE='))
      ?.slice('TITLE='.length)
      .trim();
    const peaks = lines.filter((l) => /^[\d.]/.test(l)).map((l) => l.split(/\s+/).map(Number));
    const withIntensity = peaks.length > 0 && peaks[0].length > 1;
    return {
      ...(title !== undefined && { title }),
      mz: peaks.map((p) => p[0]),
      ...(withIntensity && { intensity: peaks.map((p) => p[1]) }),
    };
  });
}
