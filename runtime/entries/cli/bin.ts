// `npm run query -- ...`: runs the offline query tool with this process's arguments; the bulk commands (mirror,
// archive) are loaded only when asked for.
import { run } from './query.js';

const command = process.argv[2];
if (command === 'mirror') await (await import('./mirror.js')).run();
else if (command === 'archive') await (await import('./archive.js')).run();
else await run();
