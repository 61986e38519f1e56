// Two checkouts' answerers in one process, query by query interleaved (which goes first alternates), so that a
// noisy machine's slow spells fall on both: on a shared 2-core VM separate runs of one code differ by up to 2× at
// p50, while interleaved differences of a few per cent repeat. Used by ab.ts (by hand) and v1Side.ts (npm run bench).
import { resolve } from 'node:path';
import { summarize, type Summary } from './measure.js';

export type Answerer = (request: {
  method: string;
  url: URL;
}) => Promise<{ status: number; body: string | Uint8Array | null }>;

/** The answerer of the checkout at `root` over the dataset in `dir`, as npm start opens it (Node's codecs). */
export async function answererOf(root: string, dir: string, cacheBytes: number): Promise<Answerer> {
  const at = (module: string) => import(resolve(root, module));
  const [{ Dataset }, { createAnswerer }, { FileSource }, { nodeCodecs }] = await Promise.all([
    at('runtime/core/dataset.ts'),
    at('runtime/api/handler.ts'),
    at('runtime/entries/node/fileSource.ts'),
    at('runtime/entries/node/platform.ts'),
  ]);
  const dataset = await Dataset.open(new FileSource(resolve(dir)), { cacheBytes, ...nodeCodecs });
  return createAnswerer(async () => dataset);
}

export interface Interleaved {
  /** Latencies of the measured (last) pass, one summary per side. */
  sides: [Summary, Summary];
  /** Queries of the first pass whose answers differ between the sides (status, or body but for its "duration"). */
  differing: number;
  /** The first of them, with both answers' beginnings. */
  firstDifference?: string;
}

/** An answer's body as text with its "duration" (the one field that depends on the clock) taken out. */
const comparable = (body: string | Uint8Array | null) =>
  (typeof body === 'string'
    ? body
    : body === null
      ? ''
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1')
  ).replace(/"duration":"[^"]*"/, '');

/**
 * Every URL asked of both sides in turn, `passes` times (the first passes fill their caches); the last pass is
 * measured and the first compared. Any answer but 200 throws, naming the side (`names`) and the URL.
 */
export async function interleave(
  sides: [Answerer, Answerer],
  urls: string[],
  passes = 3,
  names = ['side 0', 'side 1'],
): Promise<Interleaved> {
  let ms: [number[], number[]] = [[], []];
  let differing = 0;
  let firstDifference: string | undefined;
  for (let pass = 0; pass < passes; pass++) {
    ms = [[], []];
    for (let i = 0; i < urls.length; i++) {
      const answers: { status: number; body: string | Uint8Array | null }[] = [];
      for (const k of i % 2 ? [0, 1] : [1, 0]) {
        const started = performance.now();
        const answer = await sides[k]({ method: 'GET', url: new URL(urls[i]) });
        ms[k].push(performance.now() - started);
        if (answer.status !== 200) throw new Error(`${names[k]}: ${urls[i]}: HTTP ${answer.status}`);
        answers[k] = answer;
      }
      if (pass > 0) continue;
      const [a, b] = answers.map((answer) => comparable(answer.body));
      if (a === b) continue;
      differing++;
      firstDifference ??= `${urls[i]}\n  A: ${a.slice(0, 200)}\n  B: ${b.slice(0, 200)}`;
    }
  }
  return { sides: [summarize(ms[0]), summarize(ms[1])], differing, ...(firstDifference ? { firstDifference } : {}) };
}
