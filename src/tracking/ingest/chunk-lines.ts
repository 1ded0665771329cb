// Lines of an answer file -> validated answers, or the reason each bad line is refused, with its
// number. Lines end at \n, \r\n or a lone \r, as node:readline reads them; blank lines are skipped.
// A UTF-8 byte-order mark at the very start of the file is skipped (editors on Windows write one).
import { isAscii } from 'node:buffer';
import { validateAnswer, type ValidAnswer } from './answer-schema.ts';

/** Lines to read: raw UTF-8 bytes (numbered on from the previous chunk), or numbered texts. */
export type LineChunk = { bytes: Uint8Array } | { texts: string[]; lineNos: number[] };

/** What reading a chunk gives besides its answers. */
export interface ReadLines {
  /** Non-blank lines. */
  read: number;
  /** Lines of a byte chunk, blank ones included (what the next chunk's numbers run on from). */
  lines: number;
  invalid: { line: number; error: string }[];
}

/**
 * Calls `line` with each line of a chunk of UTF-8 bytes, in order, and returns how many lines there
 * were (blank ones included). Lines end at \n, \r\n or a lone \r; after the last break there is
 * a line only if the chunk does not end with one. Each line is decoded on its own: a whole chunk as
 * one string (about 13 MB for 10,000 answers) then split cost twice as much in a microbenchmark,
 * most of it in allocating and touching that string's fresh memory.
 */
function eachLine(bytes: Uint8Array, line: (text: string, index: number) => void): number {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Plain ASCII (the usual file) decodes as latin1, a plain copy; the same text as utf8 would give.
  // Line breaks are ASCII, never part of a multi-byte character, so decoding line by line gives
  // what decoding the whole chunk would.
  const encoding = isAscii(b) ? 'latin1' : 'utf8';
  const end = b.length;
  const find = (byte: number, from: number) => {
    const at = b.indexOf(byte, from);
    return at < 0 ? end : at;
  };
  let index = 0;
  // The next \n and the next \r at or after `start` (end when there is none): each is searched
  // again only once passed, so a file without \r is searched for one once per chunk.
  let lf = -1;
  let cr = -1;
  for (let start = 0; start < end; index++) {
    if (lf < start) lf = find(10, start);
    if (cr < start) cr = find(13, start);
    const stop = Math.min(lf, cr);
    line(b.toString(encoding, start, stop), index);
    start = stop + (stop === cr && lf === cr + 1 ? 2 : 1); // \r\n is one break
  }
  return index;
}

/** The bytes without the UTF-8 byte-order mark (EF BB BF) they start with, if any. */
function withoutBomBytes(bytes: Uint8Array): Uint8Array {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

/** The text without the byte-order mark it starts with, if any (readline keeps it in line 1). */
function withoutBomText(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Where a chunk lies in its file. */
export interface ChunkPlace {
  /** The latest collected_at accepted, in epoch milliseconds (see latestCollectedAt). */
  latest: number;
  /**
   * The chunk opens the file, so a byte-order mark there is skipped. Chunks are read side by side
   * (ingest/worker.ts), so a byte chunk's lines are numbered from 1 and the caller moves them on;
   * numbered texts keep their numbers.
   */
  atStart: boolean;
}

/**
 * Reads a chunk, handing each valid answer on with its line number as soon as it is read. A byte
 * chunk must end at a line break (or the end of the file).
 */
export function readChunk(
  chunk: LineChunk,
  { latest, atStart }: ChunkPlace,
  take: (answer: ValidAnswer, line: number) => void,
): ReadLines {
  const out: ReadLines = { read: 0, lines: 0, invalid: [] };
  const read = (text: string, line: number) => {
    if (!text.trim()) return;
    out.read++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      out.invalid.push({ line, error: `not valid JSON: ${(err as Error).message}` });
      return;
    }
    const v = validateAnswer(value, latest);
    if (!v.ok) {
      out.invalid.push({ line, error: v.error });
      return;
    }
    take(v.answer, line);
  };
  if ('bytes' in chunk) {
    // Skipped before decoding, so a file that is ASCII after its mark keeps the latin1 path.
    out.lines = eachLine(atStart ? withoutBomBytes(chunk.bytes) : chunk.bytes, (text, i) => read(text, 1 + i));
  } else {
    chunk.texts.forEach((text, i) => {
      read(i === 0 && atStart ? withoutBomText(text) : text, chunk.lineNos[i]);
    });
  }
  return out;
}
