// Peak memory of a bench run, sampled every 100 ms: the peak in all and the peak of each tenth
// of the run, so flat memory shows as no upward trend from tenth to tenth.
export interface MemoryWatch {
  /** Stops sampling; `seconds` is the run's length, measured from start(). */
  stop(seconds: number): { peakMb: number; peakMbByTenth: number[] };
}

export function watchMemory(): MemoryWatch {
  const started = performance.now();
  let peak = 0;
  const samples: { at: number; rss: number }[] = [];
  const sample = () => {
    const rss = process.memoryUsage().rss;
    peak = Math.max(peak, rss);
    samples.push({ at: performance.now(), rss });
  };
  const timer = setInterval(sample, 100);
  sample();
  return {
    stop(seconds) {
      clearInterval(timer);
      sample();
      const byTenth = Array<number>(10).fill(0);
      for (const { at, rss } of samples) {
        const tenth = Math.min(9, Math.max(0, Math.floor(((at - started) / (seconds * 1000)) * 10)));
        byTenth[tenth] = Math.max(byTenth[tenth], rss);
      }
      return { peakMb: Math.round(peak / 1e6), peakMbByTenth: byTenth.map((b) => Math.round(b / 1e6)) };
    },
  };
}
