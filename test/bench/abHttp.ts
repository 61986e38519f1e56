// A/B of two checkouts' `npm start` servers under HTTP load: both started cold over the same dataset with the same
// cache, then driven in turn, burst by burst, over the same sequence of ±10 ppm queries (which goes first alternates),
// counting each server's own CPU time (utime + stime from /proc). Separate runs of one server on this shared 2-core VM
// differ by ±15 % in req/s; interleaved bursts put the VM's slow spells on both, and CPU a request is steadier still.
//   git worktree add /tmp/base <rev> && ln -s "$PWD/node_modules" /tmp/base/
//   npx tsx test/bench/abHttp.ts /tmp/base . <dataset dir> [--cache <bytes>] [--burst <requests>] [--bursts <n>]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, load, startServer } from './http.js';
import { massWindows } from './measure.js';
import { searchUrl } from './queries.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { cache: { type: 'string' }, burst: { type: 'string' }, bursts: { type: 'string' } },
});
const [a, b, dir] = positionals;
if (!dir)
  throw new Error(
    'usage: abHttp.ts <checkout A> <checkout B> <dataset dir> [--cache bytes] [--burst requests] [--bursts n]',
  );
const [burst, bursts] = [Number(values.burst ?? 5_000), Number(values.bursts ?? 28)];
const paths = massWindows(10_000, 2, { lo: 360, hi: 8500, ppm: 10 }).map((w) => {
  const url = new URL(searchUrl(w));
  return url.pathname + url.search;
});

/** CPU time a process has used so far, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const sides = await Promise.all(
  [a, b].map(async (root) => {
    const port = await freePort();
    const child = await startServer(
      resolve(dir),
      port,
      { SHARD_CACHE_BYTES: values.cache ?? String(256 * 2 ** 20) },
      resolve(root),
    );
    return { root, port, child, cpu: 0, wall: 0, requests: 0, errors: 0 };
  }),
);
try {
  for (let k = 0; k < bursts; k++) {
    const offset = (k * burst) % paths.length; // each burst goes on where the last one stopped, on both sides
    const sequence = [...paths.slice(offset), ...paths.slice(0, offset)];
    for (const side of k % 2 ? [...sides].reverse() : sides) {
      const [cpu, started] = [cpuMs(side.child.pid!), performance.now()];
      const run = await load(side.port, sequence, 0, 16, burst);
      side.cpu += cpuMs(side.child.pid!) - cpu;
      side.wall += performance.now() - started;
      side.requests += run.requests;
      side.errors += run.errors + run.non2xx;
    }
  }
  for (const s of sides)
    console.log(
      `${s.root}: ${((1000 * s.cpu) / s.requests).toFixed(1)} µs CPU a request, ${Math.round((s.requests / s.wall) * 1000)} req/s, ${s.errors} errors or non-2xx`,
    );
  console.log(
    `B / A: CPU a request ${(sides[1].cpu / sides[1].requests / (sides[0].cpu / sides[0].requests)).toFixed(3)}`,
  );
} finally {
  for (const s of sides) s.child.kill('SIGTERM');
}
