// How the page fingerprints a peak list on either data path: POST /api/v1/fingerprint with the list (pasted text or
// the file as it is, gzip included) as the body, to the site's API or to the same API handler run in this page over
// shards/ — an API that does not answer (a static host, a site whose API is gone) falls back to this page, as the
// page's other answers do. Both give the same status and text. A body the API would refuse (not a peak list, a line
// that is no peak, over its limits) is refused here by the API's own reader, so the page never sends a request it
// knows to be refused. A new run cancels the one before. The answer names
// proteins by accession only: their names and organisms are asked of /api/v1/peptide, by a peptide of each.
import { callOf } from '../../api/call.js';
import { readFingerprintBody } from '../../api/fingerprintOperation.js';
import { parseFingerprintQuery } from '../../api/fingerprintParams.js';
import { createHandler } from '../../api/handler.js';
import { QueryError } from '../../api/params.js';
import { pageMemory } from '../browser/index.js';
import type { PeptideAnswer } from './answers.js';
import { here, isApi, pageDataset, type Answer } from './dataPath.js';
import type { ProteinName } from './fingerprintView.js';

/** The endpoint's answer: its status, its text, and the path that answered. */
export interface FingerprintOutcome {
  status: number;
  text: string;
  path: 'api' | 'browser';
}

/** A run superseded by another: nobody shows it. */
export class Cancelled extends Error {}

/** The handler this page runs, made when first needed (it shares the page's open dataset). */
let inPage: ((request: Request) => Promise<Response>) | undefined;

const post = (body: Blob | string): RequestInit => ({
  method: 'POST',
  body,
  headers: {
    'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream',
    Accept: 'application/json',
  },
});

export class FingerprintRunner {
  private abort: AbortController | undefined;

  /** Stops the run under way, if any: its answer is not shown. */
  cancel(): void {
    this.abort?.abort();
  }

  /** POST /api/v1/fingerprint?`query` (with `format` when given) on `path`, the body being the peak list. */
  async run(body: Blob | string, query: string, path: 'api' | 'browser'): Promise<FingerprintOutcome> {
    this.cancel();
    const abort = (this.abort = new AbortController());
    const outcome =
      (path === 'api' && (await this.overApi(body, query, abort.signal))) || (await this.here(body, query));
    if (abort.signal.aborted) throw new Cancelled();
    return outcome;
  }

  /** The site's answer; undefined when the site has no API to answer it. */
  private async overApi(body: Blob | string, query: string, signal: AbortSignal) {
    const refused = await refusal(body, query);
    if (refused) return { ...refused, path: 'api' as const };
    try {
      const response = await fetch(new URL(`./api/v1/fingerprint?${query}`, here()), { ...post(body), signal });
      const text = await response.text();
      if (!isApi({ status: response.status, text }, response.headers.get('Content-Type') ?? '')) return undefined;
      return { status: response.status, text, path: 'api' as const };
    } catch {
      if (signal.aborted) throw new Cancelled();
      return undefined;
    }
  }

  private async here(body: Blob | string, query: string): Promise<FingerprintOutcome> {
    inPage ??= createHandler(pageDataset, { memory: pageMemory });
    const response = await inPage(new Request(`https://page.invalid/api/v1/fingerprint?${query}`, post(body)));
    return { status: response.status, text: await response.text(), path: 'browser' };
  }
}

/** The API's refusal of `body` with `query` (its status and JSON text), found by its own readers; undefined if none. */
async function refusal(body: Blob | string, query: string): Promise<{ status: number; text: string } | undefined> {
  try {
    const params = new URLSearchParams(query);
    await readFingerprintBody(
      callOf(new Request(`https://page.invalid/api/v1/fingerprint?${query}`, post(body))),
      parseFingerprintQuery((name) => params.getAll(name)).query,
    );
    return undefined;
  } catch (e) {
    if (e instanceof QueryError) return { status: e.status, text: JSON.stringify({ error: e.message }) };
    throw e;
  }
}

/** Lookups asked at once. */
const LOOKUPS = 4;

/**
 * The names and organisms of `proteins`, each looked up by one of its peptides (a lookup names every protein holding
 * that peptide, so later ones it named are not asked again); a lookup refused or failed names nothing.
 */
export async function proteinNames(
  ask: (path: string) => Promise<Answer>,
  proteins: readonly { accession: string; sequence: string }[],
): Promise<Map<string, ProteinName>> {
  const names = new Map<string, ProteinName>();
  const lookUp = async ({ sequence }: { sequence: string }) => {
    const answer = await ask(`/api/v1/peptide?sequence=${encodeURIComponent(sequence)}`).catch(() => undefined);
    if (answer?.status !== 200) return;
    for (const peptide of (JSON.parse(answer.text) as PeptideAnswer).peptides)
      for (const p of peptide.accsTax)
        if (!names.has(p.acc)) names.set(p.acc, { protein: p.protein ?? undefined, organism: p.organism ?? undefined });
  };
  for (let at = 0; at < proteins.length; at += LOOKUPS)
    await Promise.all(
      proteins
        .slice(at, at + LOOKUPS)
        .filter((p) => !names.has(p.accession))
        .map(lookUp),
    );
  return names;
}
