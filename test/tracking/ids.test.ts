// Deterministic ids are RFC 4122 version 5 UUIDs under Answerscope's namespace. The expected values
// come from another implementation (Python's uuid.uuid5 with the same namespace), so a mistake in
// the hashing or in writing the version and variant cannot hide behind itself.
// test-process: shared
import test from 'ava';
import { answerId, cardId, uuidV5 } from '../../src/tracking/ingest/ids.ts';

test('uuidV5 matches an independent implementation, for short, non-ASCII and long names', (t) => {
  t.is(uuidV5('card|7d3f9a52-1111-4c3b-9a55-0a1b2c3d4e5f|0'), '18db92b9-8d50-516f-a343-18b04fd0a57b');
  t.is(
    uuidV5('answer|p|gemini|Gemini 2.5 «Pro» 日本語|GB|2026-11-01T06:00:00.000Z'),
    'e5c69654-ac3f-51cc-9f42-8098d619df85',
  );
  // Longer than the scratch buffer: hashed from a joined copy instead.
  t.is(uuidV5('x'.repeat(2000)), '2edff096-ccd8-5145-8287-c6e95df53cd8');
});

test('an answer id comes from prompt, platform, model, region and time; a card id from answer and index', (t) => {
  const a = {
    prompt_id: 'dd6cda01-2526-4f2e-9580-d6731c41b8d1',
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: '2025-01-01T23:05:14Z',
  };
  t.is(answerId(a), 'd0710fca-f76c-515f-8afa-ecf413aa1303');
  t.not(answerId({ ...a, region: 'GB' }), answerId(a));
  t.is(cardId('7d3f9a52-1111-4c3b-9a55-0a1b2c3d4e5f', 0), '18db92b9-8d50-516f-a343-18b04fd0a57b');
});

test("a shopping answer's derived id also depends on its mode; a standard answer's id does not change", (t) => {
  const a = {
    prompt_id: 'dd6cda01-2526-4f2e-9580-d6731c41b8d1',
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    collected_at: '2025-01-01T23:05:14Z',
  };
  // Python: uuid5(ns, 'answer|dd6cda01-...|chatgpt|gpt-4o|US|2025-01-01T23:05:14Z|shopping')
  t.is(answerId({ ...a, mode: 'shopping' }), 'c8f61b84-c80e-5a39-9ea6-0d1382fe4deb');
  t.is(answerId({ ...a, mode: 'standard' }), 'd0710fca-f76c-515f-8afa-ecf413aa1303');
});
