// The engine's errors: a query it refuses and a dataset it cannot read. No HTTP statuses here: the API maps these
// to its answers in one place (runtime/api/answer.ts, statusOf).

/** A query the engine refuses (a taxon the dataset lacks, too many peptides to examine, ...); the message says why. */
export class InvalidQuery {
  constructor(readonly message: string) {}
}

/**
 * Why a dataset cannot be read: `unavailable` when its storage is unreachable or holds no valid manifest (it may
 * pass), `corrupt` when the storage answered with a file that fails its checks.
 */
export type DatasetFailure = 'unavailable' | 'corrupt';

export class DatasetError extends Error {
  constructor(
    message: string,
    readonly kind: DatasetFailure,
  ) {
    super(message);
  }
}
