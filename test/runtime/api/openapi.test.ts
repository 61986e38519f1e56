// The OpenAPI document (runtime/api/openapi.ts, served at /openapi.json) against real answers of the handler
// over the bundled dataset: every answer's status is documented for its path and method, its body validates
// against the documented schema (Ajv, JSON Schema 2020-12) and its documented headers are present and valid.
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHandler, datasetOnce, type Handler } from '../../../runtime/api/handler.js';
import { MAX_QUERY_LENGTH } from '../../../runtime/api/answer.js';
import { openapiDocument } from '../../../runtime/api/openapi.js';
import { ENDPOINTS, GET_ENDPOINTS } from '../../../runtime/api/endpoints.js';
import type { ShardSource } from '../../../runtime/core/storage/source.js';
import { FileSource } from '../../../runtime/entries/node/fileSource.js';
import { folderHandler } from '../../helpers/api.js';
import { bundledDataset, readManifest } from '../../helpers/datasets.js';

type Json = Record<string, any>;

const ID = 'https://digested-peptides.invalid/openapi.json';
const doc = openapiDocument() as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...doc, $id: ID });

let dir: string;
let handler: Handler;
let version: string;

/** JSON pointer escaping of one path segment. */
const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Follows a local `$ref` (one level is all the document uses) to the object it names. */
function deref(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  const target = (node.$ref as string)
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: Json | undefined, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  expect(target, `unresolved ${node.$ref}`).toBeDefined();
  return target!;
}

/** Paths of the document as the server matches them: concrete paths first, then `/{path}`. */
function pathItem(path: string): [string, Json] {
  if (doc.paths[path]) return [path, doc.paths[path]];
  expect(path.split('/')).toHaveLength(2); // `/{path}` stands for one segment
  return ['/{path}', doc.paths['/{path}']];
}

interface Checked {
  status: number;
  body: string;
}

/** Sends a request through the handler and checks the answer against the document; returns it. */
async function check(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  h: Handler = handler,
): Promise<Checked> {
  const url = new URL(target, 'http://localhost');
  const response = await h(new Request(url, { method, headers }));
  const body = await response.text();
  const [template, item] = pathItem(url.pathname);
  const operation = item[method.toLowerCase()] as Json | undefined;
  const where = `${method} ${target} → ${response.status}`;
  expect(operation, `${where}: operation not documented`).toBeDefined();
  const documented = operation!.responses[String(response.status)] as Json | undefined;
  expect(documented, `${where}: status not documented`).toBeDefined();
  const spec = deref(documented!);

  for (const [name, ref] of Object.entries((spec.headers ?? {}) as Json)) {
    const value = response.headers.get(name);
    expect(value, `${where}: header ${name} missing`).not.toBeNull();
    const schema = deref(ref as Json).schema;
    expect(ajv.validate(schema, value), `${where}: header ${name}: ${value} ${ajv.errorsText()}`).toBe(true);
  }
  if (method === 'HEAD' || response.status === 304) {
    expect(body, `${where}: body on a HEAD or 304`).toBe('');
    return { status: response.status, body };
  }
  expect(spec.content, `${where}: answer has a body, document has no content`).toBeDefined();
  expect(response.headers.get('Content-Type')).toBe('application/json');
  const schemaPath = documented!.$ref
    ? `${(documented!.$ref as string).slice(1)}/content/application~1json/schema`
    : `/${pointer('paths', template, method.toLowerCase(), 'responses', String(response.status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(`${ID}#${schemaPath}`);
  expect(validate, `${where}: no schema at ${schemaPath}`).toBeDefined();
  const valid = validate!(JSON.parse(body));
  expect(valid, `${where}: ${ajv.errorsText(validate!.errors)} in ${body.slice(0, 300)}`).toBe(true);
  return { status: response.status, body };
}

/** A source whose shard files are corrupted (the manifest is fine): shards fail their sha256 check. */
function corrupted(inner: ShardSource): ShardSource {
  return {
    description: 'corrupted',
    async get(file) {
      const bytes = await inner.get(file);
      if (!/^[0-9a-f]{20}\.msgpack\.gz$/.test(file)) return bytes;
      const copy = new Uint8Array(bytes);
      copy[copy.length >> 1] ^= 0xff;
      return copy;
    },
  };
}

beforeAll(async () => {
  dir = await bundledDataset();
  version = readManifest(dir).datasetVersion;
  handler = folderHandler(dir);
});

describe('OpenAPI document', () => {
  it('has a path for every endpoint row, POST /api/v1/match included, in the table order', () => {
    expect(Object.keys(doc.paths)).toEqual([...ENDPOINTS.map((e) => e.path), '/openapi.json', '/{path}']);
    expect(ENDPOINTS.find((e) => e.method === 'POST')?.path).toBe('/api/v1/match');
  });

  it('is OpenAPI 3.1 with every endpoint, their defaults and limits, and resolvable references', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    for (const endpoint of GET_ENDPOINTS) {
      const get = doc.paths[endpoint.path].get as Json;
      const params = Object.fromEntries((get.parameters as Json[]).map((p) => [p.name, p]));
      const lookup = { '/api/v1/peptide': 'peptide', '/api/v1/taxa': 'taxa' }[endpoint.path];
      if (endpoint.path === '/db-info.php' || endpoint.path === '/api/v1/info') {
        expect(Object.keys(params)).toEqual(['If-None-Match']); // the dataset's description takes no parameter
      } else if (lookup) {
        // Look-ups answer one object, not pages: a required text parameter, no paging.
        expect(params[lookup === 'peptide' ? 'sequence' : 'name']).toMatchObject({
          required: true,
          schema: { type: 'string', minLength: 1 },
        });
        expect(params.page).toBeUndefined();
        if (lookup === 'peptide')
          expect(params.equateIL.schema).toMatchObject({ enum: ['true', 'false'], default: 'false' });
      } else {
        expect(params.page.schema).toMatchObject({ type: 'integer', default: 1, minimum: 1 });
        expect(params.pageSize.schema).toMatchObject({
          type: 'integer',
          default: { '/search.php': 10, '/api/v1/search': 100 }[endpoint.path] ?? 1000,
          minimum: 1,
          maximum: 1000,
        });
        expect(Boolean(params.mass1?.required)).toBe(endpoint.path === '/search-taxonomy.php');
        expect(Boolean(params.peptide?.required)).toBe(endpoint.path === '/search-peptide.php');
      }
      expect(Object.keys(get.responses).sort()).toEqual(['200', '304', '400', '414', '500', '502', '503']);
      expect(deref(doc.paths[endpoint.path].post.responses['405']).headers.Allow).toBeDefined();
    }
    expect(deref(doc.paths['/{path}'].get.responses['404']).content).toBeDefined();
    // Every $ref in the document resolves, and every schema compiles.
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        if (typeof (node as Json).$ref === 'string') deref(node as Json);
        Object.values(node).forEach(walk);
      }
    };
    walk(doc);
    for (const name of Object.keys(doc.components.schemas))
      expect(ajv.getSchema(`${ID}#/components/schemas/${name}`)).toBeDefined();
  });

  it('is served at GET /openapi.json (and documents itself)', async () => {
    const { body } = await check('GET', '/openapi.json');
    expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(doc)));
    await check('HEAD', '/openapi.json');
    expect((await handler(new Request('http://localhost/openapi.json', { method: 'POST' }))).status).toBe(405);
  });
});

describe('real answers validate against the document', () => {
  it('search.php: results by range and by peptide, empty pages, HEAD, 304 and errors', async () => {
    const ok = await check('GET', '/search.php?mass1=1247.6&mass2=1247.62&pageSize=5');
    expect(JSON.parse(ok.body).result).toHaveLength(5);
    expect(JSON.parse((await check('GET', '/search.php?peptide=EWECFCGK')).body).totalResult).toBe(1);
    expect(JSON.parse((await check('GET', '/search.php?mass1=1000&mass2=1001&page=100000')).body).result).toEqual([]);
    expect(JSON.parse((await check('GET', '/search.php?mass1=0&mass2=1')).body).totalResult).toBe(0);
    expect((await check('HEAD', '/search.php?mass1=1000&mass2=1001')).status).toBe(200);
    expect(
      (await check('GET', '/search.php?mass1=1000&mass2=1001', { 'If-None-Match': `W/"${version}"` })).status,
    ).toBe(304);
    for (const query of [
      '',
      'mass1=1',
      'mass1=abc&mass2=1',
      'mass1=-1&mass2=1',
      'mass1=2&mass2=1',
      'mass1=1&mass1=2&mass2=3',
      'mass1=1&mass2=2&pageSize=0',
      'mass1=1&mass2=2&page=x',
      'peptide=PEPBIDE',
    ]) {
      expect((await check('GET', `/search.php?${query}`)).status, query).toBe(400);
    }
    expect((await check('HEAD', '/search.php?mass1=x')).status).toBe(400);
    expect((await check('GET', `/search.php?mass1=1&mass2=2&x=${'a'.repeat(MAX_QUERY_LENGTH)}`)).status).toBe(414);
    expect((await check('POST', '/search.php?mass1=1&mass2=2')).status).toBe(405);
  });

  it('search-peptide.php: results, 400, and 500 for a non-integer page', async () => {
    const ok = await check('GET', '/search-peptide.php?peptide=GAWLELETDSK');
    expect(JSON.parse(ok.body).result[0]['1247.6034'].length).toBeGreaterThanOrEqual(3);
    await check('GET', '/search-peptide.php?peptide=snfegcnck&page=2&pageSize=1');
    for (const query of [
      '',
      'peptide=',
      'peptide=PEPBIDE',
      `peptide=${'A'.repeat(1001)}`,
      'peptide=PEPTIDE&pageSize=1001',
    ]) {
      expect((await check('GET', `/search-peptide.php?${query}`)).status, query).toBe(400);
    }
    for (const query of ['peptide=PEPTIDE&page=x', 'peptide=PEPTIDE&pageSize=1.5']) {
      expect((await check('GET', `/search-peptide.php?${query}`)).status, query).toBe(500);
    }
    expect((await check('PUT', '/search-peptide.php?peptide=PEPTIDE')).status).toBe(405);
  });

  it('/api/v1/search: modified candidates with ProForma and ppm, explicit windows, and errors', async () => {
    const ok = await check(
      'GET',
      '/api/v1/search?mz=650.3188&charge=2&fixed=Carbamidomethyl@C&variable=Oxidation@M&pageSize=5',
    );
    const entries = (JSON.parse(ok.body).result as Record<string, { proforma: string; ppm: number }[]>[]).flatMap(
      (g) => Object.values(g)[0],
    );
    expect(entries.some((e) => e.proforma.includes('[Oxidation]'))).toBe(true);
    expect(entries.every((e) => Math.abs(e.ppm) <= 10)).toBe(true);
    await check('GET', '/api/v1/search?mass1=1460.6&mass2=1460.62&variable=Phospho@STY&maxVariable=1');
    await check('GET', '/api/v1/search?mass=1000.3783&unit=Da&tolerance=0.01&page=2&pageSize=1');
    expect((await check('HEAD', '/api/v1/search?mass=1000')).status).toBe(200);
    const isotopes = '/api/v1/search?mz=650.8205&charge=2&fixed=Carbamidomethyl@C&isotopeErrors=0,1&taxon=9604';
    for (const target of [isotopes, `${isotopes}&proteins=true`])
      expect(JSON.parse((await check('GET', target)).body).result[0]).toMatchObject({
        '1299.6167': [{ isotopeError: 0 }],
      });
    for (const query of [
      'mass=1000&isotopeErrors=x',
      'mass=1000&isotopeErrors=9',
      'mass1=1000&mass2=1001&isotopeErrors=0,1',
      '',
      'mass=1000&mz=500&charge=2',
      'mz=500',
      'mz=500&charge=11',
      'mass=1000&tolerance=0',
      'mass=1000&fixed=Nope@C',
      'mass=1000&fixed=Carbamidomethyl@C&variable=Oxidation@C',
      'mass=1000&maxVariable=5',
    ]) {
      expect((await check('GET', `/api/v1/search?${query}`)).status, query).toBe(400);
    }
    expect((await check('DELETE', '/api/v1/search?mass=1000')).status).toBe(405);
  });

  it('/api/v1/search with taxon and reviewed filters', async () => {
    const bacteria = await check('GET', '/api/v1/search?mass=1500&tolerance=50&taxon=2');
    expect(JSON.parse(bacteria.body).totalResult).toBeGreaterThan(0);
    await check('GET', '/api/v1/search?mass=1500&tolerance=50&taxon=9606,10090&reviewed=true');
    for (const query of [
      'mass=1500&taxon=',
      'mass=1500&taxon=abc',
      'mass=1500&taxon=0',
      'mass=1500&taxon=999999999',
      'mass=1500&reviewed=maybe',
    ]) {
      expect((await check('GET', `/api/v1/search?${query}`)).status, query).toBe(400);
    }
  });

  it('/api/v1/peptide and /api/v1/taxa: proteins of a peptide with their LCA, taxa by name, and errors', async () => {
    const found = JSON.parse((await check('GET', '/api/v1/peptide?sequence=GAWLELETDSK&equateIL=true')).body);
    expect(found.peptides.length).toBeGreaterThan(0);
    expect(found.lca).not.toBeNull();
    expect(JSON.parse((await check('GET', '/api/v1/peptide?sequence=PEPTIDEPEPTIDE')).body)).toMatchObject({
      peptides: [],
      lca: null,
    });
    await check('GET', '/api/v1/peptide?sequence=GAWLELETDSK&taxon=2&reviewed=false');
    const taxa = JSON.parse((await check('GET', '/api/v1/taxa?name=homo')).body);
    expect(taxa.taxa.slice(0, 2)).toMatchObject([
      { taxId: 9605, name: 'Homo', rank: 'genus' },
      { taxId: 9606, name: 'Homo sapiens', rank: 'species' },
    ]);
    expect((await check('HEAD', '/api/v1/taxa?name=homo')).status).toBe(200);
    for (const [path, query] of [
      ['peptide', ''],
      ['peptide', 'sequence=PEPBIDE'],
      ['peptide', 'sequence=PEPTIDE&equateIL=yes'],
      ['peptide', 'sequence=PEPTIDE&taxon=1.5'],
      ['taxa', ''],
      ['taxa', `name=${'a'.repeat(101)}`],
    ]) {
      expect((await check('GET', `/api/v1/${path}?${query}`)).status, `${path}?${query}`).toBe(400);
    }
    expect((await check('POST', '/api/v1/taxa?name=homo')).status).toBe(405);
  });

  it('/db-info.php and /api/v1/info: the dataset described from its manifest', async () => {
    const manifest = readManifest(dir);
    const db = JSON.parse((await check('GET', '/db-info.php')).body) as Record<string, string>;
    expect(db).toMatchObject({
      enzyme_name: manifest.parameters.enzyme,
      miss_cleavage: String(manifest.parameters.missedCleavages),
      peptide_count: String(manifest.totals.peptides),
      protein_count: String(manifest.totals.proteins),
    });
    const info = JSON.parse((await check('GET', '/api/v1/info')).body) as {
      datasetVersion: string;
      totals: { shards: number };
    };
    expect(info.datasetVersion).toBe(manifest.datasetVersion);
    expect(info.totals.shards).toBe(manifest.totals.shards);
    expect((await check('HEAD', '/api/v1/info')).status).toBe(200);
    expect((await check('GET', '/db-info.php', { 'If-None-Match': `W/"${version}"` })).status).toBe(304);
    expect((await check('POST', '/db-info.php')).status).toBe(405);
  });

  it('search-taxonomy.php: accessions with taxIds, and errors', async () => {
    const ok = await check('GET', '/search-taxonomy.php?mass1=1000.37&mass2=1000.38');
    expect(JSON.parse(ok.body).result[1]['1000.3783'][0].accsTax[0]).toEqual({ acc: 'O83270', taxId: 243276 });
    const wide = await check('GET', '/search-taxonomy.php?mass1=900&mass2=2000&page=3');
    expect(JSON.parse(wide.body).result).toHaveLength(1000);
    for (const query of ['mass1=1000', 'peptide=PEPTIDE', 'mass1=1&mass2=2&page=0', 'mass1=1&mass2=2&page=x']) {
      expect((await check('GET', `/search-taxonomy.php?${query}`)).status, query).toBe(400);
    }
    expect((await check('DELETE', '/search-taxonomy.php')).status).toBe(405);
  });

  it('unknown paths are 404, dataset failures 503 and 502', async () => {
    expect((await check('GET', '/nope')).status).toBe(404);
    expect((await check('GET', '/search')).status).toBe(404);
    const missing = folderHandler(join(dir, 'none'));
    expect((await check('GET', '/search.php?mass1=1000&mass2=1001', {}, missing)).status).toBe(503);
    const broken = createHandler(datasetOnce(() => corrupted(new FileSource(dir))));
    expect((await check('GET', '/search-taxonomy.php?mass1=1000&mass2=1001', {}, broken)).status).toBe(502);
  });

  it('the schemas reject answers that break the contract', () => {
    const validate = ajv.getSchema(`${ID}#/components/schemas/EnvelopeAccsTax`)!;
    const good = {
      totalResult: 1,
      memory: '80 MB',
      duration: '00:00:00.001',
      page: 1,
      pageSize: 1000,
      result: [{ '1000.3783': [{ seq: 'EWECFCGK', accsTax: [{ acc: 'O83270', taxId: 243276 }] }] }],
    };
    expect(validate(good)).toBe(true);
    const broken: unknown[] = [
      { ...good, totalResult: undefined },
      { ...good, extra: 1 },
      { ...good, duration: '1 ms' },
      { ...good, result: [{ '1000.3783': [{ seq: 'EWECFCGK', accsTax: [{ acc: 'O83270', taxId: '243276' }] }] }] },
      { ...good, result: [{ '1000.3783': [{ seq: 'EWECFCGK', acc: ['O83270'] }] }] },
      { ...good, result: [{ '1000.3783': [], '1000.3784': [] }] },
      { ...good, result: [{ '1000.37834': [{ seq: 'EWECFCGK', accsTax: [{ acc: 'O83270', taxId: 1 }] }] }] },
    ];
    for (const body of broken) expect(validate(JSON.parse(JSON.stringify(body))), JSON.stringify(body)).toBe(false);
    const error = ajv.getSchema(`${ID}#/components/schemas/Error`)!;
    expect(error({ error: 'x' })).toBe(true);
    expect(error({ error: 'x', stack: 'y' })).toBe(false);
  });
});
