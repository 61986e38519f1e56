// Golden answers: what a request got (status, the headers clients rely on, the body with its `memory` and
// `duration` blanked), recorded from the code whose answers are the contract, replayed by test/golden/replay.test.ts.
import { createHash } from 'node:crypto';
import { ETAG, type GoldenRequest } from './queries.js';

export const GOLDEN_FILE = new URL('./answers.json', import.meta.url);

/** Bodies up to this size are stored whole; longer ones by length and sha256. */
const INLINE_BYTES = 1500;

/** What stands for the served dataset's version in recorded headers. */
export const VERSION = '<datasetVersion>';

const HEADERS = [
  'content-type',
  'access-control-allow-origin',
  'x-content-type-options',
  'cache-control',
  'etag',
  'x-dataset-version',
  'allow',
];

export interface GoldenAnswer {
  request: GoldenRequest;
  status: number;
  headers: Record<string, string>;
  body?: string;
  bodyBytes: number;
  bodySha256: string;
}

/** The body with the two fields that vary from run to run blanked. */
export const stableBody = (text: string) =>
  text.replace(
    /^\{"totalResult":(\d+),"memory":"\d+ MB","duration":"\d\d:\d\d:\d\d\.\d\d\d",/,
    '{"totalResult":$1,"memory":"","duration":"",',
  );

/** Answers one golden request with a Fetch handler and records what came back. */
export async function record(
  handler: (req: Request) => Promise<Response>,
  request: GoldenRequest,
  etag: string,
): Promise<GoldenAnswer> {
  const headers: Record<string, string> = {};
  if (request.ifNoneMatch !== undefined)
    headers['If-None-Match'] = request.ifNoneMatch === ETAG ? etag : request.ifNoneMatch;
  const response = await handler(
    new Request(new URL(request.path, 'http://golden.test'), { method: request.method, headers }),
  );
  const text = stableBody(await response.text());
  // The dataset's version (in ETag and X-Dataset-Version) as a placeholder: a rebuild of the same answers with a
  // new version must replay, and the header must still name the version being served.
  const version = /^W\/"(.*)"$/.exec(etag)![1];
  const kept: Record<string, string> = {};
  for (const name of HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) kept[name] = value.replaceAll(version, VERSION);
  }
  const bytes = Buffer.byteLength(text);
  return {
    request,
    status: response.status,
    headers: kept,
    ...(bytes <= INLINE_BYTES ? { body: text } : {}),
    bodyBytes: bytes,
    bodySha256: createHash('sha256').update(text).digest('hex'),
  };
}
