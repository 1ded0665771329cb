// The OpenAI-compatible provider against a local fake server: a good answer, malformed JSON, an
// answer that breaks the schema, a timeout, HTTP 500 (each retried once) and a 401 (not retried).
// test-process: shared
import test from 'ava';
import { OpenAiCompatibleGenerator, GenerationError } from '../../src/content/llm/openai.ts';
import { builtinBrief } from '../../src/content/llm/builtin-brief.ts';
import { builtinDraft } from '../../src/content/llm/builtin-draft.ts';
import { contentGenerator, builtinGenerator } from '../../src/content/llm/generator.ts';
import { loadConfig } from '../../src/config.ts';
import type { GenerationInput } from '../../src/content/llm/generator-types.ts';
import { fakeLlm, ok, type Reply } from '../helpers/fake-llm.ts';

const input: GenerationInput = {
  brand: { name: 'Acme', domains: ['acme.example'], industry: 'Software', region: 'US' },
  opportunity: {
    id: '00000000-0000-4000-8000-000000000001',
    type: 'owned',
    title: 'Publish a page',
    description: 'Globex appears',
    prompt_text: 'best crm for startups',
    source_data: {
      answers: 4,
      gap_answers: 3,
      brand: { named: 1, cited: 0, visibility_score: 30 },
      competitors: [{ name: 'Globex', named: 4, cited: 2, visibility_score: 85.6 }],
      citations: { top_domains: [], top_urls: [] },
    },
  },
};
const goodBrief = builtinBrief(input);
const goodDraft = builtinDraft(input, goodBrief);

// The default deadline is far beyond what a fake that answers at once needs, even on a loaded machine.
async function withFake(
  script: Reply[],
  fn: (gen: OpenAiCompatibleGenerator, fake: Awaited<ReturnType<typeof fakeLlm>>) => Promise<void>,
  timeoutMs = 30_000,
) {
  const fake = await fakeLlm(script);
  try {
    await fn(
      new OpenAiCompatibleGenerator({ baseUrl: fake.baseUrl, apiKey: 'sk-test', model: 'test-model', timeoutMs }),
      fake,
    );
  } finally {
    await fake.close();
  }
}

test('a good answer is parsed and validated; the request asks for JSON of the schema', async (t) => {
  await withFake([ok(goodBrief)], async (gen, fake) => {
    t.deepEqual(await gen.brief(input), goodBrief);
    t.is(fake.requests.length, 1);
    const [req] = fake.requests;
    t.is(req.path, '/v1/chat/completions');
    t.is(req.authorization, 'Bearer sk-test');
    t.is(req.body.model, 'test-model');
    t.is(req.body.response_format.type, 'json_schema');
    t.deepEqual(
      Object.keys(req.body.response_format.json_schema.schema.properties).sort(),
      Object.keys(goodBrief).sort(),
    );
    t.regex(req.body.messages[1].content, /best crm for startups/);
    t.regex(req.body.messages[1].content, /"Globex"/);
  });
});

test('a draft answer in a Markdown code fence is accepted', async (t) => {
  await withFake([ok(`\`\`\`json\n${JSON.stringify(goodDraft)}\n\`\`\``)], async (gen) => {
    t.deepEqual(await gen.draft(input, goodBrief), goodDraft);
  });
});

test('malformed JSON is retried once, then fails', async (t) => {
  await withFake([ok('{"suggestedTitle": "Oops"'), ok(goodBrief)], async (gen, fake) => {
    t.deepEqual(await gen.brief(input), goodBrief, 'the retry succeeds');
    t.is(fake.requests.length, 2);
  });
  await withFake([ok('not json at all')], async (gen, fake) => {
    const err = await t.throwsAsync(gen.brief(input), { instanceOf: GenerationError });
    t.is(err!.message, "Content generation failed: the model's answer is not valid JSON");
    t.is(fake.requests.length, 2);
  });
});

test('an answer that does not match the schema is retried once, then fails naming the field', async (t) => {
  await withFake([ok({ ...goodBrief, targetWordCount: 'long' })], async (gen, fake) => {
    const err = await t.throwsAsync(gen.brief(input), { instanceOf: GenerationError });
    t.regex(err!.message, /does not match the schema \(targetWordCount: /);
    t.is(fake.requests.length, 2);
  });
  await withFake([ok({ ...goodDraft, structuredDataJsonLd: '{}' })], async (gen) => {
    await t.throwsAsync(
      gen.draft(input, goodBrief),
      { message: /does not match the schema/ },
      'the model never writes the JSON-LD',
    );
  });
});

// Neither outcome depends on how fast the machine is: a model that never answers can only be
// ended by the deadline (were it not enforced, the test would hang), and one that answers at once
// is given a deadline no loaded machine comes near. The first deadline is a second, not less, so
// each attempt reaches the fake (which counts it) before it is given up.
test('a timeout is retried once, then fails', async (t) => {
  await withFake(
    [{ kind: 'never' }],
    async (gen, fake) => {
      const err = await t.throwsAsync(gen.brief(input), { instanceOf: GenerationError });
      t.is(err!.message, 'Content generation failed: the model did not answer within 1000 ms');
      t.is(fake.requests.length, 2);
    },
    1000,
  );
  await withFake(
    [{ kind: 'never' }, ok(goodBrief)],
    async (gen, fake) => {
      t.deepEqual(await gen.brief(input), goodBrief, 'a first attempt that never answers, a good second one');
      t.is(fake.requests.length, 2);
    },
    5000,
  );
});

test('HTTP 500 is retried once, then fails; a 401 is not retried', async (t) => {
  await withFake([{ kind: 'status', status: 500 }], async (gen, fake) => {
    await t.throwsAsync(gen.brief(input), {
      instanceOf: GenerationError,
      message: 'Content generation failed: the model endpoint answered HTTP 500',
    });
    t.is(fake.requests.length, 2);
  });
  await withFake([{ kind: 'status', status: 503 }, ok(goodBrief)], async (gen) => {
    t.deepEqual(await gen.brief(input), goodBrief);
  });
  await withFake([{ kind: 'status', status: 401 }], async (gen, fake) => {
    await t.throwsAsync(gen.brief(input), {
      message: 'Content generation failed: the model endpoint answered HTTP 401',
    });
    t.is(fake.requests.length, 1);
  });
});

test('the configuration picks the generator', (t) => {
  t.is(contentGenerator(loadConfig({})), builtinGenerator);
  t.is(contentGenerator(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'm' })).kind, 'llm');
  t.throws(() => contentGenerator(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1' })), {
    message: 'LLM_MODEL must be set when LLM_BASE_URL is set',
  });
});
