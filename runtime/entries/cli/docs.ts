// `npm run docs`: rewrites the generated parameter tables of docs/api.md (or of the file given) from the endpoint table.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rewriteParamBlocks } from '../../api/apiDocs.js';

const file = process.argv[2] ?? fileURLToPath(new URL('../../../docs/api.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const after = rewriteParamBlocks(before);
if (after !== before) writeFileSync(file, after);
console.log(`${file}: ${after === before ? 'parameter tables up to date' : 'parameter tables rewritten'}`);
