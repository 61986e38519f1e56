#!/usr/bin/env node
// `digested-peptides` command (the package's bin): loads the TypeScript query tool through tsx and runs it
// with this process's arguments, e.g. `digested-peptides search --mass1 1000 --mass2 1001 --shards ./shards`.
import { tsImport } from 'tsx/esm/api';

const { run } = await tsImport('../runtime/entries/cli/query.ts', import.meta.url);
await run();
