// Where the suite's processes keep their temporary files (TMPDIR): a folder in /dev/shm when that
// memory file system has room, else the system's. Every test server copies a migrated data
// directory (40 MB in 1,600 files) and its stores write through it; on this machine's disk the
// copy alone costs about 1.1 CPU-seconds of kernel time, in memory 0.1. Plain JavaScript: read by
// ava.suite.config.js in ava's own process.
import fs from 'node:fs';
import path from 'node:path';

const SHM = '/dev/shm';
/** Free room /dev/shm must have: a few servers' data directories at once, and Chromium's profiles. */
const NEEDED_BYTES = 4 * 1024 ** 3;

/** The folder, or undefined to leave TMPDIR as it is. */
export function fastTmp() {
  try {
    const { bavail, bsize } = fs.statfsSync(SHM);
    if (bavail * bsize < NEEDED_BYTES) return undefined;
    // One folder for every run, so tsx's transform cache (kept under TMPDIR) lasts from run to run.
    const dir = path.join(SHM, 'answerscope-tests');
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}
