// `npm start`: starts the server (runtime/entries/node/server.ts), reporting a failure in one line.
import { start } from './server.js';

start().catch((e: Error) => {
  process.stderr.write(`start: error: ${e.message}\n`);
  process.exitCode = 1;
});
