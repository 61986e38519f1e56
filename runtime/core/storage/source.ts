// Where dataset files come from: the ShardSource interface and the HTTP source (fetch: any platform). The
// local-folder source is Node's (runtime/entries/node/fileSource.ts).

/** A failure to get a dataset file; `transient` failures may succeed when tried again. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** Reads the files of one dataset folder (manifest.json and shards) by their names in the manifest. */
export interface ShardSource {
  /** Where the files come from, for messages (never a secret). */
  readonly description: string;
  get(file: string): Promise<Uint8Array>;
}

/**
 * Dataset file names are plain names inside the dataset folder, or inside one folder of 1–4 lower-case hex digits
 * (a large dataset's files are placed by the first digits of their hash, docs/format.md): no other separator,
 * no dot-dot, no leading dot.
 */
export function checkName(file: string): void {
  if (!/^(?:[0-9a-f]{1,4}\/)?[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(file))
    throw new SourceError(`invalid dataset file name "${file}"`, false);
}

export interface HttpSourceOptions {
  /** Milliseconds before one attempt is abandoned. */
  timeoutMs?: number;
  /** Further attempts after a transient failure, with exponential backoff from backoffMs. */
  retries?: number;
  backoffMs?: number;
  fetch?: typeof fetch;
}

/** Fetches dataset files below a base URL (the site's own /shards/, or object storage behind a CDN). */
export class HttpSource implements ShardSource {
  readonly description: string;
  private base: URL;
  private options: Required<HttpSourceOptions>;

  constructor(base: string | URL, options: HttpSourceOptions = {}) {
    this.base = new URL(base);
    if (!this.base.pathname.endsWith('/')) this.base.pathname += '/';
    this.description = `${this.base.origin}${this.base.pathname}`;
    // Called through a function: a browser's fetch refuses to run bound to any object but the window.
    this.options = {
      timeoutMs: 10_000,
      retries: 2,
      backoffMs: 100,
      fetch: (input, init) => globalThis.fetch(input, init),
      ...options,
    };
  }

  async get(file: string): Promise<Uint8Array> {
    checkName(file);
    const url = new URL(file, this.base);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(url, file);
      } catch (e) {
        const error = e instanceof SourceError ? e : new SourceError(`${file}: ${(e as Error).message}`, true);
        if (!error.transient || attempt >= this.options.retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, this.options.backoffMs * 2 ** attempt));
      }
    }
  }

  private async once(url: URL, file: string): Promise<Uint8Array> {
    let response: Response;
    try {
      response = await this.options.fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (e) {
      const timedOut = (e as Error).name === 'TimeoutError';
      throw new SourceError(
        `${file}: ${timedOut ? `no answer within ${this.options.timeoutMs} ms` : 'fetch failed'}`,
        true,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      const transient = response.status === 429 || response.status >= 500;
      throw new SourceError(`${file}: HTTP ${response.status}`, transient);
    }
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch {
      throw new SourceError(`${file}: body cut short`, true);
    }
  }
}
