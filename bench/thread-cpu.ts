// CPU seconds per thread of this process over a stretch of time, grouped by the kind of thread,
// from Linux's /proc/self/task (nothing elsewhere). Threads are sampled every 100 ms, so a thread
// that ends before the stretch does (the ingest worker) still counts, up to its last 100 ms.
//   const cpu = threadCpu(); ...work...; cpu.stop() -> { main: 3.3, 'ingest worker': 33.0, ... }
import fs from 'node:fs';

const TASKS = '/proc/self/task';
// Clock ticks per second, as Linux reports CPU time in /proc (USER_HZ, 100 on every Linux we run).
const HZ = 100;

/** Each live thread's name and CPU seconds (user + system). */
function read(): Map<string, { name: string; cpu: number }> {
  const threads = new Map<string, { name: string; cpu: number }>();
  for (const tid of fs.readdirSync(TASKS)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`${TASKS}/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended between the listing and the read
    }
    // `tid (name) state ...`: the name may hold spaces and parentheses, so cut at the last `)`.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    threads.set(tid, { name, cpu: (Number(fields[11]) + Number(fields[12])) / HZ });
  }
  return threads;
}

/**
 * Starts measuring; stop() gives CPU seconds by kind: `main` (the event loop); `worker`, named
 * `ingest worker` unless told (threads named `node` that started during the stretch: the worker
 * threads, together, and a thread Node starts with each that uses a few hundredths of a second, since Node's own
 * helper threads start with the process); `node helpers` (libuv's pool, where chDB's calls run,
 * and V8's, where garbage collection helps); and each other kind by the name the thread gives
 * itself (chDB's `ThreadPool`, `MergeMutate`, ...). Null where /proc is not there.
 */
export function threadCpu(worker = 'ingest worker'): { stop(): Record<string, number> | null } {
  if (!fs.existsSync(TASKS)) return { stop: () => null };
  const before = read();
  const last = new Map(before);
  const sample = () => {
    for (const [tid, t] of read()) last.set(tid, t);
  };
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const byKind: Record<string, number> = {};
      for (const [tid, t] of last) {
        const kind =
          tid === String(process.pid)
            ? 'main'
            : t.name === 'node'
              ? before.has(tid)
                ? 'node helpers'
                : worker
              : t.name;
        byKind[kind] = (byKind[kind] ?? 0) + t.cpu - (before.get(tid)?.cpu ?? 0);
      }
      // Rounded to tenths; kinds that used less than that are left out.
      return Object.fromEntries(
        Object.entries(byKind)
          .map(([kind, cpu]) => [kind, Math.round(cpu * 10) / 10] as const)
          .filter(([, cpu]) => cpu > 0),
      );
    },
  };
}
