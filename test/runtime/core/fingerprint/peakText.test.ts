// Tests runtime/core/fingerprint/peakText.ts: text peak lists as MALDI software exports them (one peak a line with
// any of the usual separators and comments, CSV/TSV tables with a header), each refusal naming its line, and the most
// intense peaks kept in m/z order; expectations written by hand from the inputs.
import { describe, expect, it } from 'vitest';
import { PeakTextError, readPeakText, topPeaksOf } from '../../../../runtime/core/fingerprint/peakText.js';

const list = (text: string) => {
  const { mz, intensity } = readPeakText(text);
  return { mz: Array.from(mz), intensity: intensity && Array.from(intensity) };
};

describe('readPeakText', () => {
  it('reads one m/z a line, with or without intensities, whatever the separator, skipping comments and blanks', () => {
    expect(list('# spot A1\n1000.5\n\n 1200.25 \r\n1500.75 # a comment\n')).toEqual({
      mz: [1000.5, 1200.25, 1500.75],
      intensity: undefined,
    });
    for (const separator of [' ', '\t', ',', ';', ' ,  '])
      expect(list(`1000.5${separator}20\n1200.25${separator}3.5e2\n`)).toEqual({
        mz: [1000.5, 1200.25],
        intensity: [20, 350],
      });
  });

  it('reads CSV and TSV tables by their header, other columns and quotes aside', () => {
    expect(list('"m/z","Intensity","SN"\n"1000.5","20","12.1"\n1200.25,30,8\n')).toEqual({
      mz: [1000.5, 1200.25],
      intensity: [20, 30],
    });
    expect(list('Index\tMass (Da)\tArea\n1\t1000.5\t7\n2\t1200.25\t9\n')).toEqual({
      mz: [1000.5, 1200.25],
      intensity: [7, 9],
    });
    expect(list('centroid;snr\n1000.5;3\n')).toEqual({ mz: [1000.5], intensity: undefined });
    expect(list('m/z intensity\n1000.5 5\n')).toEqual({ mz: [1000.5], intensity: [5] });
  });

  it('refuses what is not a peak list, naming the line', () => {
    const refused = (text: string) => {
      try {
        readPeakText(text);
      } catch (e) {
        expect(e).toBeInstanceOf(PeakTextError);
        return (e as Error).message;
      }
      throw new Error(`read ${JSON.stringify(text)}`);
    };
    expect(refused('')).toMatch(/^no peak in the text/);
    expect(refused('# only a comment\n')).toMatch(/^no peak/);
    expect(refused('>sp|P02768|ALBU_HUMAN Albumin\nMKWVTFISLL\n')).toMatch(/^line 1: .* neither a peak nor a header/);
    expect(refused('1000.5\n1200.x\n')).toMatch(/^line 2: "1200.x" is not a positive m\/z/);
    expect(refused('1000.5\n-3\n')).toMatch(/^line 2: "-3" is not a positive m\/z/);
    expect(refused('1000.5\n0\n')).toMatch(/^line 2: "0" is not a positive m\/z/);
    expect(refused('1000.5 10\n1200.25\n')).toMatch(/^line 2: no intensity, where the lines before give one/);
    expect(refused('1000.5\n1200.25 10\n')).toMatch(/^line 2: an intensity, where the lines before give none/);
    expect(refused('1000.5 10 3\n')).toMatch(/^line 1: 3 numbers/);
    expect(refused('1000.5 -1\n')).toMatch(/^line 1: "-1" is not an intensity/);
    expect(refused('m/z,intensity\n1000.5,\n')).toMatch(/^line 2: "" is not an intensity/);
    expect(refused('0x10\n')).toMatch(/^line 1: .* neither a peak nor a header/);
  });
});

describe('topPeaksOf', () => {
  const peaks = {
    mz: Float64Array.from([900, 1000, 1100, 1200, 1300]),
    intensity: Float64Array.from([5, 50, 5, 40, 60]),
  };

  it('keeps the most intense peaks, in m/z order, the lighter one on a tie', () => {
    expect(topPeaksOf(peaks, 3)).toEqual({
      mz: Float64Array.from([1000, 1200, 1300]),
      intensity: Float64Array.from([50, 40, 60]),
    });
    expect(topPeaksOf(peaks, 4)).toEqual({
      mz: Float64Array.from([900, 1000, 1200, 1300]),
      intensity: Float64Array.from([5, 50, 40, 60]),
    });
  });

  it('keeps every peak when there are no more than asked, or no intensities to rank them by', () => {
    expect(topPeaksOf(peaks, 5)).toBe(peaks);
    const bare = { mz: Float64Array.from([900, 1000]) };
    expect(topPeaksOf(bare, 1)).toBe(bare);
  });
});
