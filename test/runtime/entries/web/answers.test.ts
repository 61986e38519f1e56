// The page's TSV downloads (runtime/entries/web/answers.ts), built from the API's JSON, against the TSV the API's
// own renderers write for the same queries (`npm run query -- v1|peptide --format tsv`, the endpoints' tsv renderers): the
// search's first seven columns and the peptide view's every column are the same rows; the search's last three are
// each accession's reviewed flag, protein and organism as /api/v1/peptide gives them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { ENDPOINTS } from '../../../../runtime/api/endpoints.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import {
  peptideTsv,
  searchTsv,
  type PeptideAnswer,
  type SearchAnswer,
} from '../../../../runtime/entries/web/answers.js';
import { call, folderHandler } from '../../../helpers/api.js';
import { bundledDataset } from '../../../helpers/datasets.js';

let handler: Handler;
let dataset: Dataset;
beforeAll(async () => {
  const dir = await bundledDataset();
  handler = folderHandler(dir);
  dataset = await Dataset.open(new FileSource(dir));
});

/** The API's own TSV (header and rows) of an endpoint's query. */
async function apiTsv(path: string, query: string): Promise<string> {
  const endpoint = ENDPOINTS.find((e) => e.path === path)!;
  const params = new URLSearchParams(query);
  const parsed = endpoint.parse((name) => params.getAll(name));
  return String(endpoint.renderers.tsv(dataset, parsed, await endpoint.run(dataset, parsed), 0, () => ''));
}

const columns = (tsv: string, n: number) =>
  tsv
    .split('\n')
    .map((line) => line.split('\t').slice(0, n).join('\t'))
    .join('\n');

describe('TSV downloads', () => {
  it("a search's rows are the API's v1 TSV rows, with reviewed, protein and organism added", async () => {
    for (const query of [
      'mz=650.3188&charge=2&fixed=Carbamidomethyl@C&variable=Oxidation@M',
      'mass1=1460.6&mass2=1460.62&variable=Phospho@STY&maxVariable=1',
      'mass=1500&tolerance=100&taxon=2&pageSize=5',
    ]) {
      const answer = (await call(handler, `/api/v1/search?${query}&proteins=true`)).body as SearchAnswer;
      const tsv = searchTsv(answer);
      expect(columns(tsv, 7)).toBe(columns(await apiTsv('/api/v1/search', query), 7));
      const rows = tsv
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t'));
      expect(rows.length).toBeGreaterThan(3);
      for (const row of rows) {
        const lookup = (await call(handler, `/api/v1/peptide?sequence=${row[1]}`)).body as PeptideAnswer;
        const protein = lookup.peptides[0].accsTax.find((p) => p.acc === row[5])!;
        expect(row.slice(7)).toEqual([String(protein.reviewed), protein.protein ?? '', protein.organism ?? '']);
      }
    }
  });

  it("the peptide view's rows are the API's peptide TSV", async () => {
    for (const query of [
      'sequence=GKTLAFIGDSVAR&equateIL=true',
      'sequence=EDQLEPVTK',
      'sequence=NSSQKGSSVLSIK&reviewed=false',
    ]) {
      const answer = (await call(handler, `/api/v1/peptide?${query}`)).body as PeptideAnswer;
      const tsv = peptideTsv(answer);
      expect(tsv).toBe(await apiTsv('/api/v1/peptide', query));
      expect(tsv.split('\n').length).toBeGreaterThan(2);
    }
  });
});
