// POST /api/v1/match (its row in runtime/api/endpoints.ts, matchParams.ts) through the Fetch handler and npm start's
// listener: an MGF body or JSON precursors answered as the core matches them (each candidate list equal to
// /api/v1/search's), the answer valid against the OpenAPI document, malformed records listed, and the contract's
// refusals: 400 naming the parameter or the precursor, 413 past 1,000 precursors or 5 MiB (declared or streamed), 405,
// OPTIONS.
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer, datasetOnce, type Handler } from '../../../runtime/api/handler.js';
import { precursorJson } from '../../../runtime/api/matchJson.js';
import { openapiDocument } from '../../../runtime/api/openapi.js';
import { Dataset } from '../../../runtime/core/storage/dataset.js';
import { matchPrecursors } from '../../../runtime/core/match/match.js';
import { MAX_MATCH_BODY_BYTES, parseMatchQuery } from '../../../runtime/api/matchParams.js';
import { readMgf, type Spectrum } from '../../../runtime/core/match/mgf.js';
import { FileSource } from '../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../runtime/entries/node/platform.js';
import { createListener } from '../../../runtime/entries/node/server.js';
import { call, expectErrorBody, fetchGot, folderHandler, listen, stable, type Got } from '../../helpers/api.js';
import { bundledDataset } from '../../helpers/datasets.js';
import { REPO } from '../../helpers/process.js';

const MATCH_PATH = '/api/v1/match';
const MGF = join(REPO, 'test/fixtures/mgf');
const QUERY = '?fixed=Carbamidomethyl@C&variable=Oxidation@M';

let dir: string;
let handler: Handler;
let dataset: Dataset;

beforeAll(async () => {
  dir = await bundledDataset();
  handler = folderHandler(dir);
  dataset = await Dataset.open(new FileSource(dir), nodeCodecs);
});

const post = (body: BodyInit, query = QUERY, headers: Record<string, string> = {}) =>
  call(handler, `${MATCH_PATH}${query}`, { method: 'POST', body, headers });

/** The answer's result as the core gives it for the same precursors and parameters. */
async function coreResult(precursors: Parameters<typeof matchPrecursors>[2], query: string) {
  const params = new URLSearchParams(query);
  const batch = await matchPrecursors(
    dataset,
    parseMatchQuery((name) => params.getAll(name)),
    precursors,
  );
  return precursors.map((_, i) => precursorJson(batch, i));
}

async function spectraOf(text: string): Promise<Spectrum[]> {
  const spectra: Spectrum[] = [];
  for await (const item of readMgf([text])) if ('spectrum' in item) spectra.push(item.spectrum);
  return spectra;
}

const validate = new Ajv2020({ strict: false })
  .addSchema(openapiDocument(), 'api')
  .compile({ $ref: 'api#/components/schemas/MatchAnswer' });

function expectAnswer(got: Got): void {
  expect(got.status, got.text.slice(0, 300)).toBe(200);
  expect(got.headers.get('content-type')).toBe('application/json');
  expect(got.headers.get('access-control-allow-origin')).toBe('*');
  expect(got.headers.get('cache-control')).toBe('no-store');
  expect(validate(got.body), JSON.stringify(validate.errors)).toBe(true);
}

describe('an MGF body', () => {
  it('a real file (CRLF, comment header, CHARGE=2+,3+) is answered as the core matches it, with counts that add up', async () => {
    const text = readFileSync(join(MGF, 'mpa_Test_100.mgf'), 'latin1');
    expect(text).toContain('\r\n');
    const got = await post(text);
    expectAnswer(got);
    const spectra = await spectraOf(text);
    expect(got.body.result).toEqual(await coreResult(spectra, QUERY));
    expect(got.body.precursors).toBe(100);
    expect(got.body.malformed).toEqual([]);
    const perPrecursor = (got.body.result as { searches: { candidates: unknown[] }[] }[]).map((r) =>
      r.searches.reduce((n, s) => n + s.candidates.length, 0),
    );
    expect(got.body.candidates).toBe(perPrecursor.reduce((a, b) => a + b, 0));
    expect(got.body.withCandidates).toBe(perPrecursor.filter((n) => n > 0).length);
    expect(got.body.candidates).toBeGreaterThan(0);
  });

  it('each search equals /api/v1/search for its precursor (all pages)', async () => {
    const text = readFileSync(join(MGF, 'galaxyp_trfp_really_small.mgf'), 'latin1');
    const got = await post(text, `${QUERY}&tolerance=20`);
    expectAnswer(got);
    let compared = 0;
    for (const precursor of got.body.result) {
      for (const search of precursor.searches) {
        const api = await call(
          handler,
          `/api/v1/search?mz=${precursor.mz}&charge=${search.charge}&fixed=Carbamidomethyl@C&variable=Oxidation@M&tolerance=20&pageSize=1000`,
        );
        expect(api.body.totalResult).toBeLessThanOrEqual(1000);
        expect(search.candidates).toEqual(
          api.body.result.flatMap((g: Record<string, unknown[]>) => Object.values(g)[0]),
        );
        compared += search.candidates.length;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('lists malformed records with their lines and answers the rest', async () => {
    const text = [
      'BEGIN IONS',
      'TITLE=ok',
      'PEPMASS=650.3188',
      'CHARGE=2+',
      'END IONS',
      'BEGIN IONS',
      'TITLE=no mass',
      'CHARGE=2+',
      'END IONS',
      'BEGIN IONS',
      'PEPMASS=500.2',
      'CHARGE=12+',
      'END IONS',
      'BEGIN IONS',
      'PEPMASS=700.1',
      'END IONS',
    ].join('\n');
    const got = await post(text);
    expectAnswer(got);
    expect(got.body.malformed.map((m: { line: number }) => m.line)).toEqual([6, 10]);
    expect(got.body.malformed[0].error).toMatch(/PEPMASS/);
    expect(got.body.malformed[1].error).toMatch(/CHARGE/);
    expect(got.body.result.map((r: { index: number }) => r.index)).toEqual([1, 4]);
    expect(got.body.result[1].searches.map((s: { charge: number }) => s.charge)).toEqual([2, 3]); // no CHARGE: charges=2,3
  });

  it('charges and top: parameters of the query string', async () => {
    const text = 'BEGIN IONS\nPEPMASS=650.3188\nEND IONS\n';
    const got = await post(text, '?charges=1,2,3-&top=2&tolerance=100');
    expectAnswer(got);
    expect(got.body.result[0].searches.map((s: { charge: number }) => s.charge)).toEqual([1, 2, -3]);
    for (const s of got.body.result[0].searches) expect(s.candidates.length).toBeLessThanOrEqual(2);
    expect(got.body.result).toEqual(await coreResult(await spectraOf(text), '?charges=1,2,3-&top=2&tolerance=100'));
  });

  it('isotopeErrors: one search per charge and isotope error, each saying its isotopeError; the schema holds it', async () => {
    const text = 'BEGIN IONS\nPEPMASS=650.8205\nEND IONS\nBEGIN IONS\nPEPMASS=650.8205\nCHARGE=2+\nEND IONS\n';
    const query = '?charges=2,3&isotopeErrors=1,0&fixed=Carbamidomethyl@C';
    const got = await post(text, query);
    expectAnswer(got);
    const tried = (r: { searches: { charge: number; isotopeError: number }[] }) =>
      r.searches.map((s) => [s.charge, s.isotopeError]);
    expect(got.body.result.map(tried)).toEqual([
      [
        [2, 1],
        [2, 0],
        [3, 1],
        [3, 0],
      ],
      [
        [2, 1],
        [2, 0],
      ],
    ]);
    expect(got.body.result[1].searches[0].mass).toBe((650.8205 - 1.007276466621) * 2 - 1.0033548378);
    expect(got.body.result).toEqual(await coreResult(await spectraOf(text), query));
    expect(got.body.candidates).toBeGreaterThan(0);
  });
});

describe('a JSON body', () => {
  it('m/z with charge, m/z alone (charges tried) and neutral masses, by Content-Type or by a leading {', async () => {
    const body = {
      precursors: [{ mz: 650.3188, charge: 2 }, { mz: 500.27 }, { mass: 1298.62 }, { mz: 433.5, charge: -3 }],
    };
    const expected = await coreResult(
      [
        { index: 1, mz: 650.3188, charges: [2] },
        { index: 2, mz: 500.27, charges: [] },
        { index: 3, mass: 1298.62 },
        { index: 4, mz: 433.5, charges: [-3] },
      ],
      QUERY,
    );
    for (const headers of [{ 'Content-Type': 'application/json' }, {}] as Record<string, string>[]) {
      const got = await post(JSON.stringify(body), QUERY, headers);
      expectAnswer(got);
      expect(got.body.result).toEqual(expected);
    }
    const api = await call(handler, `/api/v1/search?mass=1298.62${QUERY.replace('?', '&')}&pageSize=1000`);
    expect(expected[2].searches[0].candidates).toEqual(
      api.body.result.flatMap((g: Record<string, unknown[]>) => Object.values(g)[0]),
    );
    expect(expected[1].searches.map((s) => s.charge)).toEqual([2, 3]);
  });

  it.each([
    ['not JSON', '{"precursors": [', /not valid JSON/],
    ['no precursors list', '{"spectra": []}', /^precursors: the JSON body must be/],
    ['an item that is not an object', '{"precursors": [1]}', /^precursors\[0\] must be an object/],
    ['a bad m/z', '{"precursors": [{"mz": -4}]}', /^precursors\[0\]\.mz must be a number above 0/],
    [
      'a bad charge',
      '{"precursors": [{"mz": 500}, {"mz": 500, "charge": 2.5}]}',
      /^precursors\[1\]\.charge must be an integer from 1 to 10/,
    ],
    ['mass with mz', '{"precursors": [{"mass": 1000, "mz": 500}]}', /^precursors\[0\]: give mass, or mz/],
    ['an unknown field', '{"precursors": [{"mz": 500, "z": 2}]}', /^precursors\[0\]\.z is not a precursor field/],
  ])('%s: 400 naming it', async (_, body, message) => {
    expectErrorBody(await post(body, QUERY, { 'Content-Type': 'application/json' }), 400, message);
  });
});

describe('peak lists as clients send them', () => {
  const file = join(MGF, 'depthcharge_TMT10-Trial-8.mgf');
  const mgf = readFileSync(file);
  const results = async (got: Got) => {
    expectAnswer(got);
    return stable(got.body);
  };

  it('gzip (by its bytes or Content-Encoding) and multipart uploads, plain or gzipped, answer as the plain body', async () => {
    const plain = await results(await post(mgf));
    expect(plain.precursors).toBeGreaterThan(0);
    const upload = (bytes: Uint8Array, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      return form;
    };
    for (const [label, got] of [
      ['gzip bytes', await post(gzipSync(mgf))],
      ['Content-Encoding: gzip', await post(gzipSync(mgf), QUERY, { 'Content-Encoding': 'gzip' })],
      ['multipart', await post(upload(mgf, 'run.mgf'))],
      ['multipart of a .mgf.gz', await post(upload(gzipSync(mgf), 'run.mgf.gz'))],
    ] as const)
      expect(await results(got), label).toEqual(plain);
  });

  it('anything else is one 400 saying what it looks like', async () => {
    const fasta = gunzipSync(readFileSync(join(REPO, 'data/uniprot-sample.fasta.gz'))).subarray(0, 20_000);
    const cases: [BodyInit, Record<string, string>, RegExp][] = [
      [readFileSync(join(REPO, 'README.md')), {}, /it looks like text without a BEGIN IONS line/],
      [fasta, {}, /it looks like a FASTA file/],
      [gzipSync(fasta), {}, /it looks like a FASTA file/],
      [new Uint8Array([0, 159, 146, 150, 1, 2, 3]), {}, /it looks like binary data/],
      [gzipSync(gzipSync(mgf)), {}, /a compressed file inside a compressed file/],
      [mgf, { 'Content-Encoding': 'gzip' }, /Content-Encoding: gzip but is not gzip-compressed/],
      [gzipSync(mgf).subarray(0, 100), {}, /gzip-compressed but cannot be decompressed/],
      [
        `--b\r\nContent-Disposition: form-data; name="file"; filename="a.mgf"\r\n\r\n${mgf}\r\n--b--\r\n`,
        {},
        /a multipart\/form-data upload sent without its Content-Type header/,
      ],
      ['--b\r\n\r\n', { 'Content-Type': 'multipart/form-data; boundary=b' }, /multipart\/form-data body/],
    ];
    for (const [body, headers, message] of cases) expectErrorBody(await post(body, QUERY, headers), 400, message);
  });

  it('counts every malformed record and lists the first 20', async () => {
    const bad = (i: number) => `BEGIN IONS\nTITLE=bad ${i}\nEND IONS\n`;
    const body =
      Array.from({ length: 30 }, (_, i) => bad(i)).join('') + 'BEGIN IONS\nPEPMASS=650.32\nCHARGE=2+\nEND IONS\n';
    const got = await post(body);
    expectAnswer(got);
    expect(got.body.precursors).toBe(1);
    expect(got.body.malformedCount).toBe(30);
    expect(got.body.malformed.map((m: { line: number }) => m.line)).toEqual(
      Array.from({ length: 20 }, (_, i) => 1 + 3 * i),
    );
  });
});

describe('refusals', () => {
  it('400 for a bad parameter, naming it, before the body is matched', async () => {
    expectErrorBody(
      await post('BEGIN IONS\nPEPMASS=500\nEND IONS\n', '?tolerance=-1'),
      400,
      /^tolerance must be greater than 0/,
    );
    expectErrorBody(await post('BEGIN IONS\nPEPMASS=500\nEND IONS\n', '?fixed=Nope@C'), 400, /^fixed: /);
    expectErrorBody(await post('BEGIN IONS\nPEPMASS=500\nEND IONS\n', '?charges=0'), 400, /^charges: /);
    expectErrorBody(await post('BEGIN IONS\nPEPMASS=500\nEND IONS\n', '?top=0'), 400, /^top must be from 1/);
    for (const bad of ['x', '9', '0,,1'])
      expectErrorBody(
        await post('BEGIN IONS\nPEPMASS=500\nEND IONS\n', `?isotopeErrors=${bad}`),
        400,
        /^isotopeErrors must be whole numbers from -1 to 3/,
      );
  });

  it('400 for a body with no precursors at all, saying what it holds', async () => {
    expectErrorBody(
      await post(''),
      400,
      /not an MGF or mzML peak list or JSON precursors: it looks like nothing \(it is empty\)/,
    );
    expectErrorBody(await post('\n# only a comment\n'), 400, /it looks like text without a BEGIN IONS line/);
    expectErrorBody(await post('CHARGE=2+\n'), 400, /holds no precursors/); // an MGF preamble without records
  });

  it('413 past 1,000 precursors (MGF or JSON), and past 5 MiB whether declared or streamed', async () => {
    const record = (i: number) => `BEGIN IONS\nPEPMASS=${500 + i / 10}\nCHARGE=2+\nEND IONS\n`;
    const thousand = Array.from({ length: 1000 }, (_, i) => record(i)).join('');
    expect((await post(thousand, '?tolerance=1')).status).toBe(200);
    expectErrorBody(await post(thousand + record(1000), '?tolerance=1'), 413, /more than 1,000 spectra/);
    const json = JSON.stringify({ precursors: Array.from({ length: 1001 }, (_, i) => ({ mass: 1000 + i })) });
    expectErrorBody(await post(json), 413, /1001 given; at most 1000/);
    const big = 'x'.repeat(MAX_MATCH_BODY_BYTES + 1);
    expectErrorBody(await post(big), 413, /larger than 5 MiB/);
    // Streamed without a length: refused once the limit is passed.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_MATCH_BODY_BYTES + 65536) return controller.close();
        sent += 65536;
        controller.enqueue(new Uint8Array(65536).fill(0x20));
      },
    });
    const got = await call(handler, `${MATCH_PATH}`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expectErrorBody(got, 413, /larger than 5 MiB/);
  });

  it('405 for GET, HEAD and PUT (Allow: POST, OPTIONS); OPTIONS is a CORS preflight', async () => {
    for (const method of ['GET', 'HEAD', 'PUT']) {
      const got = await call(handler, MATCH_PATH, { method });
      expect(got.status).toBe(405);
      expect(got.headers.get('allow')).toBe('POST, OPTIONS');
      if (method !== 'HEAD') expect(got.body.error).toMatch(/POST/);
    }
    const options = await call(handler, MATCH_PATH, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(options.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('414 for an over-long query string', async () => {
    expectErrorBody(await post('BEGIN IONS\nPEPMASS=500\nEND IONS\n', `?x=${'a'.repeat(5000)}`), 414);
  });
});

describe('npm start', () => {
  let site: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    site = await listen(createListener(dir, createAnswerer(datasetOnce(() => new FileSource(dir)))));
  });
  afterAll(() => site.close());

  it('answers a POSTed file as the Fetch handler does; refuses an oversized declared body with 413', async () => {
    const text = readFileSync(join(MGF, 'depthcharge_TMT10-Trial-8.mgf'));
    const got = await fetchGot(`${site.base}${MATCH_PATH}${QUERY}`, {
      method: 'POST',
      body: text,
      headers: { 'Content-Type': 'text/plain' },
    });
    expectAnswer(got);
    expect(stable(got.body)).toEqual(stable((await post(text.toString('latin1'))).body));
    const big = await fetchGot(`${site.base}${MATCH_PATH}`, {
      method: 'POST',
      body: new Uint8Array(MAX_MATCH_BODY_BYTES + 10),
    });
    expectErrorBody(big, 413);
  });
});
