// npm start's listener with the web page (runtime/entries/node/server.ts given the built page): / is index.html
// (revalidated), /assets/… its content-named files (cached for good), HEAD answers headers only; the API and
// /shards/ answer as without a page; without a page, / is the API's JSON 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer, datasetOnce } from '../../../../runtime/api/handler.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { createListener } from '../../../../runtime/entries/node/server.js';
import { buildWebPage, type WebPage } from '../../../../runtime/entries/web/bundle.js';
import { fetchGot, listen } from '../../../helpers/api.js';
import { bundledDataset } from '../../../helpers/datasets.js';

let page: WebPage;
let withPage: Awaited<ReturnType<typeof listen>>;
let without: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  const dir = await bundledDataset();
  page = await buildWebPage();
  const answerer = createAnswerer(datasetOnce(() => new FileSource(dir)));
  withPage = await listen(createListener(dir, answerer, page));
  without = await listen(createListener(dir, answerer));
});
afterAll(async () => {
  await withPage?.close();
  await without?.close();
});

describe('npm start with the page', () => {
  it('serves index.html at / and each asset under /assets/, byte for byte, with their cache headers', async () => {
    const index = await fetch(`${withPage.base}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(new Uint8Array(await index.arrayBuffer())).toEqual(page.files[0].body);
    for (const file of page.files.slice(1)) {
      const response = await fetch(`${withPage.base}/${file.path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(file.type);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(file.body);
    }
    const head = await fetch(`${withPage.base}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(page.files[0].body.length));
    expect(await head.text()).toBe('');
  });

  it('answers the API, the dataset and unknown paths as without a page', async () => {
    expect((await fetchGot(`${withPage.base}/api/v1/search?mass=1000&pageSize=1`)).status).toBe(200);
    expect((await fetch(`${withPage.base}/shards/manifest.json`)).status).toBe(200);
    const unknown = await fetchGot(`${withPage.base}/assets/app-000000000000.js`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/no such endpoint/);
    expect((await fetchGot(`${withPage.base}/`, { method: 'POST' })).status).toBe(405);
  });

  it("without a page, / is the API's JSON 404", async () => {
    const got = await fetchGot(`${without.base}/`);
    expect(got.status).toBe(404);
    expect(got.body.error).toMatch(/no such endpoint/);
  });
});
