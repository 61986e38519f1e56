// Worker-thread bootstrap: loads the TypeScript worker (builder/phases/worker.ts) through tsx inside the thread.
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
