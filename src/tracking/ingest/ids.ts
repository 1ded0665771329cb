// Deterministic ids (RFC 4122 version 5, SHA-1 over a namespace): an answer captured without an id
// gets the same id every time it is captured or imported again, so re-running is safe.
import { hash } from 'node:crypto';

const NAMESPACE = Buffer.from('6f1d0c3e5a7b4e2f9c8d1b2a3e4f5a6b', 'hex'); // Answerscope's own namespace
// The variant's first hex digit: the hash's top two bits of byte 8 replaced by binary 10.
const VARIANT = '89ab';

export function uuidV5(name: string): string {
  const x = hash('sha1', Buffer.concat([NAMESPACE, Buffer.from(name)]), 'hex');
  const variant = VARIANT[parseInt(x[16], 16) & 3];
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-5${x.slice(13, 16)}-${variant}${x.slice(17, 20)}-${x.slice(20, 32)}`;
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
