// Embedded reads hand long lists (1,000 UUIDs or strings and more) to the engine as a file rather
// than written into the query (src/stores/clickhouse.ts, spoolLists): read that way, a list selects
// exactly what it selects written in, its files are gone once the read has answered, and a list the
// file cannot carry still goes written in, so the engine names what is wrong with it.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import test from 'ava';
import { select } from '../../src/stores/scoped-query.ts';
import { migrationsBefore, scratchClickHouse } from '../helpers/scratch-clickhouse.ts';

const BRAND = '5d0c1f3e-0000-4000-8000-00000000000b';
const ORG = '5d0c1f3e-0000-4000-8000-00000000000c';
const TEXTS = ["it's", 'back\\slash', 'new\nline\ttab', 'café ’quotes’ 日本語 😀', '', 'x'.repeat(300)];
const STORED = TEXTS.map(() => randomUUID());

const spooled = () =>
  fs
    .readdirSync(os.tmpdir())
    .filter((d) => d.startsWith(`answerscope-spool-${process.pid}-`)) // this process's stores only
    .flatMap((d) => fs.readdirSync(`${os.tmpdir()}/${d}`));

test.serial('a long list selects what it does written in, and leaves no file behind', async (t) => {
  const ch = await scratchClickHouse(t, migrationsBefore('999'));
  const rows = STORED.map(
    (id, i) =>
      `('${id}', '${ORG}', '${BRAND}', '${ORG}', 'chatgpt', 'm', 'US', 'standard', '2026-11-01 06:00:00', '2026-11-01', ${JSON.stringify(TEXTS[i]).replace(/'/g, "\\'").replace(/^"|"$/g, "'")}, 0, 0, 1)`,
  );
  await ch.client.command({
    query: `INSERT INTO answers (answer_id, organization_id, brand_id, prompt_id, platform, model, region, mode, collected_at, day, text, citation_count, product_count, sign) VALUES ${rows.join(', ')}`,
  });
  t.deepEqual(
    (await ch.system<{ text: string }>('SELECT text FROM answers ORDER BY text')).map((r) => r.text),
    [...TEXTS].sort(),
    'the texts are stored as they are',
  );
  const read = async (where: string, params: Record<string, unknown>) =>
    (
      await ch.rows<{ answer_id: string }>(
        select({ table: 'answers', scope: { brandIds: [BRAND] } }, { select: 'answer_id', where, params }),
      )
    )
      .map((r) => r.answer_id)
      .sort();
  const expected = [...STORED].sort();
  for (const others of [0, 999, 1500]) {
    const ids = [...Array.from({ length: others }, () => randomUUID()), ...STORED];
    t.deepEqual(await read('answer_id IN {ids:Array(UUID)}', { ids }), expected, `${ids.length} ids`);
    const texts = [...Array.from({ length: others }, (_, i) => `other ${i}`), ...TEXTS];
    t.deepEqual(await read('text IN {texts:Array(String)}', { texts }), expected, `${texts.length} texts`);
    // Used twice, and as an array rather than an IN list.
    t.deepEqual(
      await read('has({ids:Array(UUID)}, answer_id) AND answer_id IN {ids:Array(UUID)}', { ids }),
      expected,
      `${ids.length} ids, twice`,
    );
  }
  t.deepEqual(spooled(), []);

  // Not UUIDs: written in as they are, for the engine to refuse.
  const bad = [...Array.from({ length: 1500 }, () => randomUUID()), 'not-a-uuid'];
  await t.throwsAsync(read('answer_id IN {ids:Array(UUID)}', { ids: bad }), { message: /not-a-uuid/ });
  t.deepEqual(spooled(), []);
});
