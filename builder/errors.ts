// The builder's one error type: a user-facing failure whose message the command line prints as one line.

/** A one-line, user-facing build error (the CLI prints its message and exits non-zero). */
export class BuildError extends Error {}
