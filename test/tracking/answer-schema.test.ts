// validateAnswer checks plainly valid answers by hand and leaves the rest to the schema: whatever
// the input, it must accept exactly what the schema accepts, return what the schema returns, and
// refuse with the schema's message.
import test from 'ava';
import { answerLineSchema, validateAnswer } from '../../src/tracking/answer-schema.ts';

const base = {
  id: '5D0C1F3E-0000-4000-8000-000000000001',
  prompt_id: 'C04515F8-74F9-4DD2-BA09-66AB02953DF1',
  platform: 'chatgpt', model: '  gpt-4o ', region: 'US', mode: 'standard',
  collected_at: '2026-11-01T06:00:00+02:00',
  text: 'Acme is great.',
  citations: [{ url: 'https://acme.example/x', title: 'X', extra: 1 }, { url: 'https://b.example/', title: null }, { url: 'https://c.example/' }],
  products: [],
  unknown_key: 'dropped',
};

const long = (n: number) => 'x'.repeat(n);
const variants: [string, unknown][] = [
  ['as is', base],
  ['not an object', [base]],
  ['null', null],
  ['a string', 'answer'],
  ...(['id', 'model', 'region', 'mode', 'citations', 'products', 'unknown_key'] as const)
    .map((k): [string, unknown] => [`without ${k}`, { ...base, [k]: undefined }]),
  ...(['prompt_id', 'platform', 'collected_at', 'text'] as const)
    .map((k): [string, unknown] => [`without ${k}`, { ...base, [k]: undefined }]),
  ['id null', { ...base, id: null }],
  ['id not a UUID', { ...base, id: 'abc' }],
  ['id a number', { ...base, id: 7 }],
  ['prompt_id not a UUID', { ...base, prompt_id: 'c04515f8-74f9-4dd2-ba09' }],
  ['unknown platform', { ...base, platform: 'altavista' }],
  ['platform in capitals', { ...base, platform: 'ChatGPT' }],
  ['model at the limit after trimming', { ...base, model: ` ${long(200)} ` }],
  ['model too long', { ...base, model: long(201) }],
  ['model a number', { ...base, model: 4 }],
  ['region too long', { ...base, region: long(65) }],
  ['region null', { ...base, region: null }],
  ['shopping', { ...base, mode: 'shopping' }],
  ['unknown mode', { ...base, mode: 'fast' }],
  ['date without a zone', { ...base, collected_at: '2026-11-01T06:00:00' }],
  ['impossible date', { ...base, collected_at: '2026-13-45T00:00:00Z' }],
  ['date with fractions', { ...base, collected_at: '2026-11-01T06:00:00.123456Z' }],
  ['date a number', { ...base, collected_at: 1762000000000 }],
  ['text empty', { ...base, text: '' }],
  ['text too long', { ...base, text: long(1_000_001) }],
  ['text not a string', { ...base, text: ['a'] }],
  ['citations not a list', { ...base, citations: { url: 'https://a.example' } }],
  ['too many citations', { ...base, citations: Array.from({ length: 1001 }, () => ({ url: 'https://a.example' })) }],
  ['a citation without url', { ...base, citations: [{ title: 'x' }] }],
  ['a citation that is a list', { ...base, citations: [['https://a.example']] }],
  ['a citation url too long', { ...base, citations: [{ url: long(8193) }] }],
  ['a citation title too long', { ...base, citations: [{ url: 'https://a.example', title: long(2001) }] }],
  ['a citation title a number', { ...base, citations: [{ url: 'https://a.example', title: 3 }] }],
  ['citations null', { ...base, citations: null }],
  ['products', { ...base, products: [{ title: 'Acme CRM', price: '$5' }] }],
  ['products not a list', { ...base, products: {} }],
  ['a product that is not an object', { ...base, products: ['x'] }],
];

for (const [name, input] of variants) {
  test(`same outcome as the schema: ${name}`, (t) => {
    const schema = answerLineSchema.safeParse(input);
    const v = validateAnswer(input);
    t.is(v.ok, schema.success);
    if (v.ok && schema.success) t.deepEqual(v.answer, schema.data as any);
    if (!v.ok && !schema.success) t.true(v.error.startsWith(`${schema.error.issues[0].path.join('.') || 'line'}: `), v.error);
  });
}

test('messages name the field and the first problem', (t) => {
  t.deepEqual(validateAnswer({ ...base, text: undefined }), { ok: false, error: 'text: is required' });
  t.deepEqual(validateAnswer({ ...base, collected_at: '2026-13-45T00:00:00Z' }), { ok: false, error: 'collected_at: is not a valid date' });
  t.deepEqual(validateAnswer({ ...base, citations: [{ title: 'x' }] }), { ok: false, error: 'citations.0.url: is required' });
});
