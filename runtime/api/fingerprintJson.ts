// A fingerprint's answer as JSON: the core's Fingerprint objects, one per peak list in the order of the input, as
// `{"lists": [...]}`, with the envelope's memory and duration (its OpenAPI schema: fingerprintSchema.ts).
import type { Fingerprint } from '../core/fingerprint/fingerprint.js';
import { formatDuration } from './envelope.js';

/** The HTTP answer: the fingerprints, then the envelope's memory and the duration since `started`. */
export function fingerprintAnswerJson(lists: readonly Fingerprint[], started: number, memory: () => string): string {
  const body = JSON.stringify(lists);
  return `{"lists":${body},"memory":${JSON.stringify(memory())},"duration":"${formatDuration(performance.now() - started)}"}`;
}
