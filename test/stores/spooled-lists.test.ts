// Embedded reads hand long lists (1,000 UUIDs or strings and more) to the engine as a file rather
// than written into the query (src/stores/clickhouse.ts, spoolLists): read that way, a list selects
// exactly what it selects written in, its files are gone once the read has answered, and a list the
// file cannot carry still goes written in, so the engine names what is wrong with it. What a killed
// process left in the spool is removed when a store opens.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import test from 'ava';
import { removeOrphanSpools } from '../../src/stores/spool.ts';
import { select } from '../../src/stores/scoped-query.ts';
import { migrationsBefore, scratchClickHouse } from '../helpers/scratch-clickhouse.ts';
import { testBrandId } from '../helpers/brand-id.ts';

const BRAND = testBrandId('5d0c1f3e-0000-4000-8000-00000000000b');
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
  await ch.command({
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

test('the spool directories of processes gone for an hour are removed, and only those', (t) => {
  const dir = fs.mkdtempSync(`${os.tmpdir()}/answerscope-orphans-`);
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const dead = spawnSync(process.execPath, ['-e', '']).pid; // exited by now
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  const make = (name: string, age: number) => {
    fs.mkdirSync(`${dir}/${name}`);
    fs.writeFileSync(`${dir}/${name}/1.rowbinary`, 'x');
    fs.utimesSync(`${dir}/${name}`, hoursAgo(age), hoursAgo(age));
  };
  make(`answerscope-spool-${dead}-old`, 2);
  make(`answerscope-spool-${dead}-recent`, 0.5); // maybe a process this one cannot see
  make(`answerscope-spool-${process.pid}-mine`, 2);
  make('answerscope-spool-1-init', 2); // a process that runs
  make('something-else-1-x', 2);
  removeOrphanSpools(dir);
  t.deepEqual(
    fs.readdirSync(dir).sort(),
    [
      'answerscope-spool-1-init',
      `answerscope-spool-${dead}-recent`,
      `answerscope-spool-${process.pid}-mine`,
      'something-else-1-x',
    ].sort(),
  );
});

test.serial('opening the embedded store clears what a killed process left in the spool', async (t) => {
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  const left = `${os.tmpdir()}/answerscope-spool-${dead}-left`;
  fs.mkdirSync(left);
  fs.writeFileSync(`${left}/1.rowbinary`, 'x');
  fs.utimesSync(left, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
  t.teardown(() => fs.rmSync(left, { recursive: true, force: true }));
  await scratchClickHouse(t, []);
  t.false(fs.existsSync(left));
});
