// `npm run query -- ...`: runs the offline query tool with this process's arguments.
import { run } from './query.js';

await run();
