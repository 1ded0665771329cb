// Deterministic ids (RFC 4122 version 5, SHA-1 over a namespace): an answer captured without an id
// gets the same id every time it is captured or imported again, so re-running is safe.
import { hash } from 'node:crypto';

const NAMESPACE = Buffer.from('6f1d0c3e5a7b4e2f9c8d1b2a3e4f5a6b', 'hex'); // Answerscope's own namespace
// Namespace then name, hashed in one call (ingestion derives an id per answer; a Hash object per
// id cost twice as much). Names longer than the scratch space are joined into a new buffer.
const scratch = Buffer.alloc(1024);
NAMESPACE.copy(scratch);

// The id's text, written byte by byte: the hyphens and the version digit (5) are fixed.
const id = Buffer.alloc(36);
id[8] = id[13] = id[18] = id[23] = 0x2d;
id[14] = 0x35;
// The variant's first hex digit: the hash's top two bits of byte 8 replaced by binary 10.
const VARIANT = '89ab';

/** Copies hex digits [from, to) of the digest to the id's text at `at`. */
function copyHex(hex: string, from: number, to: number, at: number): void {
  for (let i = from; i < to; i++) id[at + i - from] = hex.charCodeAt(i);
}

export function uuidV5(name: string): string {
  const input =
    name.length * 3 <= scratch.length - NAMESPACE.length
      ? scratch.subarray(0, NAMESPACE.length + scratch.write(name, NAMESPACE.length))
      : Buffer.concat([NAMESPACE, Buffer.from(name)]);
  // Hashed straight to hex (half the time of a digest Buffer formatted by hand), then copied into
  // the id's bytes and read back as one string. A template of the digest's slices gave the same
  // text as a tree of a dozen small strings, which ingestion keeps for the whole batch (an id per
  // answer): decoding it as one flat string leaves one object to keep instead.
  const x = hash('sha1', input, 'hex');
  copyHex(x, 0, 8, 0);
  copyHex(x, 8, 12, 9);
  copyHex(x, 13, 16, 15);
  id[19] = VARIANT.charCodeAt(parseInt(x[16], 16) & 3);
  copyHex(x, 17, 20, 20);
  copyHex(x, 20, 32, 24);
  return id.toString('latin1', 0, 36);
}

export interface AnswerKey {
  prompt_id: string;
  platform: string;
  model: string;
  region: string;
  collected_at: string;
  mode?: string;
}

/**
 * The id of an answer that came without one: from prompt, platform, model, region and time, and
 * from the mode when it is not standard, so a shopping answer never replaces the standard answer of
 * the same moment. Standard answers keep the name they always had: files imported before still
 * replace their answers rather than duplicate them.
 */
export function answerId(a: AnswerKey): string {
  const name = `answer|${a.prompt_id}|${a.platform}|${a.model}|${a.region}|${a.collected_at}`;
  return uuidV5(a.mode === undefined || a.mode === 'standard' ? name : `${name}|${a.mode}`);
}

/** A product card's id: its answer and its index among the answer's products. */
export function cardId(answerId: string, index: number): string {
  return uuidV5(`card|${answerId}|${index}`);
}
