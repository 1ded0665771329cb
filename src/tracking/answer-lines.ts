// Lines of an answer file -> validated answers, or the reason each bad line is refused, with its
// number. Lines end at \n, \r\n or a lone \r, as node:readline reads them; blank lines are skipped.
import { isAscii } from 'node:buffer';
import { validateAnswer, type ValidAnswer } from './answer-schema.ts';

/** Lines to read: raw UTF-8 bytes (numbered on from the previous chunk), or numbered texts. */
export type LineChunk = { bytes: Uint8Array } | { texts: string[]; lineNos: number[] };

/** What reading a chunk gives besides its answers. */
export interface ReadLines {
  /** Non-blank lines. */
  read: number;
  invalid: { line: number; error: string }[];
}

const LINE_BREAK = /\r\n|\r|\n/;

/** Reads chunks in file order; byte chunks must end at a line break (or the end of the file). */
export class LineReader {
  private nextLine = 1;

  /** Reads a chunk, handing each valid answer on with its line number as soon as it is read. */
  each(chunk: LineChunk, take: (answer: ValidAnswer, line: number) => void): ReadLines {
    let texts: string[];
    let lineNos: number[] | null = null;
    if ('bytes' in chunk) {
      const b = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
      // Plain ASCII (the usual file) decodes as latin1, a plain copy; the same text as utf8 would give.
      const text = b.toString(isAscii(b) ? 'latin1' : 'utf8');
      texts = text.includes('\r') ? text.split(LINE_BREAK) : text.split('\n');
      // The piece after the last break is a line only when the chunk does not end with a break.
      if (texts[texts.length - 1] === '') texts.pop();
    } else {
      texts = chunk.texts;
      lineNos = chunk.lineNos;
    }
    const out: ReadLines = { read: 0, invalid: [] };
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      const line = lineNos ? lineNos[i] : this.nextLine + i;
      if (!text.trim()) continue;
      out.read++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        out.invalid.push({ line, error: `not valid JSON: ${(err as Error).message}` });
        continue;
      }
      const v = validateAnswer(value);
      if (!v.ok) {
        out.invalid.push({ line, error: v.error });
        continue;
      }
      take(v.answer, line);
    }
    if (!lineNos) this.nextLine += texts.length;
    return out;
  }
}
