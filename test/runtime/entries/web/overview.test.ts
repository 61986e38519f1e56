// The home view's peptides per mass bin (runtime/entries/web/overview.ts, massBins): on the bundled dataset's shard
// index, round bins holding every peptide (up to rounding); and a synthetic index where each bin's count is known;
// the tagline's words for each way a dataset was digested.
import { describe, expect, it } from 'vitest';
import { digestionText, massBins, taglineOf, type MassSpan } from '../../../../runtime/entries/web/overview.js';
import { bundledDataset, readManifest, shardEntries } from '../../../helpers/datasets.js';

describe('massBins', () => {
  it('counts every peptide of the bundled dataset in at most 80 round bins covering its masses', async () => {
    const dir = await bundledDataset();
    const spans = shardEntries(dir);
    const manifest = readManifest(dir);
    expect(spans.length).toBe(manifest.totals.shards);
    const bins = massBins(spans);
    expect(bins.counts.length).toBeLessThanOrEqual(80);
    expect([1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]).toContain(bins.width);
    const total = bins.counts.reduce((a, b) => a + b, 0);
    expect(Math.abs(total - manifest.totals.peptides)).toBeLessThanOrEqual(bins.counts.length);
    expect(bins.starts[0]).toBeLessThanOrEqual(spans[0].firstKey / 1e4);
    expect(bins.starts.at(-1)! + bins.width).toBeGreaterThan(spans.at(-1)!.lastKey / 1e4);
    expect(Math.max(...bins.counts)).toBeGreaterThan(total / bins.counts.length); // a peak, not a flat line
  });

  it('spreads a span over the bins it crosses, by mass, and keeps one inside a bin whole', () => {
    const spans: MassSpan[] = [
      { firstKey: 1_000_0000, lastKey: 1_000_0000, peptides: 7 }, // one key: 1000 Da
      { firstKey: 1_005_0000, lastKey: 1_015_0000, peptides: 100 }, // 1005..1015: half in [1000,1010), half in [1010,1020)
      { firstKey: 1_021_0000, lastKey: 1_029_0000, peptides: 30 }, // inside [1020,1030)
    ];
    const bins = massBins(spans, 3);
    expect(bins).toEqual({ starts: [1000, 1010, 1020], counts: [57, 50, 30], width: 10 });
    expect(massBins([], 10).counts).toEqual([]);
  });
});

describe('the tagline and the digestion', () => {
  const base = { enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50, shardBytes: 32768 };

  it('says the enzyme and the bounds of a fully specific build as before', () => {
    expect(digestionText(base)).toBe('trypsin, up to 2 missed cleavages, 6–50 residues');
    expect(digestionText({ ...base, specificity: 'full', clipMet: false })).toBe(digestionText(base));
    expect(taglineOf({ parameters: base, release: null })).toMatch(/ Tryptic peptides of UniProt proteins \(trypsin,/);
  });

  it('says a semi-specific or non-specific build, and a clipped initiator Met', () => {
    const semi = { ...base, enzyme: 'glu-c', specificity: 'semi' as const, clipMet: true };
    expect(digestionText(semi)).toBe(
      'glu-c semi-specific, up to 2 missed cleavages, 6–50 residues, initiator Met also removed',
    );
    expect(taglineOf({ parameters: semi, release: null })).toMatch(/ Semi-specific Glu-C peptides of UniProt/);
    const none = { ...base, specificity: 'none' as const };
    expect(digestionText(none)).toBe('every sub-sequence of 6–50 residues');
    expect(taglineOf({ parameters: none, release: null })).toMatch(/ Non-specific peptides of UniProt/);
  });
});
