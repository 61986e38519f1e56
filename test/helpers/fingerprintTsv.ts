// The TSV of fingerprints as docs/api.md describes it, written from a JSON answer's lists: a row per listed protein,
// then per listed organism, of each list, and one row with empty hit columns for a list with neither.

export const DOCUMENTED_COLUMNS =
  'list title peaks kind position accession taxId organism taxonRank reviewed peptides matched distinct length coverage score expect matchedMz matchedPeptides sameSet proteins'.split(
    ' ',
  );

export function documentedTsv(lists: any[]): string {
  const rows = [DOCUMENTED_COLUMNS.join('\t')];
  lists.forEach((list, i) => {
    const head = [i + 1, list.title ?? '', list.peaks.length];
    const mzOf = (peak: number) => list.peaks[peak].mz;
    const hits = [
      ...list.proteins.map((p: any, k: number) => [
        'protein',
        k + 1,
        p.accession,
        p.taxId,
        '',
        '',
        p.reviewed,
        p.peptides,
        p.matched,
        p.distinct,
        p.length ?? '',
        p.coverage ?? '',
        p.score,
        p.expect,
        p.matches.map((m: any) => mzOf(m.peak)).join(';'),
        p.matches.map((m: any) => m.proforma).join(';'),
        p.sameSet.join(';'),
        '',
      ]),
      ...(list.organisms ?? []).map((t: any, k: number) => [
        'organism',
        k + 1,
        '',
        t.taxId,
        t.name,
        t.rank,
        '',
        t.peptides,
        t.matched,
        '',
        '',
        '',
        t.score,
        t.expect,
        t.peaks.map(mzOf).join(';'),
        '',
        '',
        t.proteins.join(';'),
      ]),
    ];
    for (const hit of hits.length > 0 ? hits : [Array(18).fill('')]) rows.push([...head, ...hit].join('\t'));
  });
  return `${rows.join('\n')}\n`;
}
