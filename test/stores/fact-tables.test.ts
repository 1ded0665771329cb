// The tables' declarations (src/stores/fact-tables.ts), from which ingestion's rows, reconcile's
// keys and the scoped reads are derived, against what the migrations (clickhouse/*.sql) build.
import test from 'ava';
import {
  ANSWER_ROWS_IN,
  APPEND_SCHEMAS,
  columnTypesOf,
  FACT_TABLES,
  READ_SHAPES,
} from '../../src/stores/fact-tables.ts';
import { migrationsBefore, scratchClickHouse } from '../helpers/scratch-clickhouse.ts';

interface Column {
  table: string;
  name: string;
  type: string;
  default_kind: string;
}

test.serial('the migrations build every table as declared', async (t) => {
  const ch = await scratchClickHouse(t, migrationsBefore('999'));
  const columns = await ch.system<Column>(
    `SELECT table, name, type, default_kind FROM system.columns
     WHERE database = currentDatabase() ORDER BY table, position`,
  );
  const of = (table: string) => columns.filter((c) => c.table === table);

  // A fact table: its written columns, name for name, type for type, in the stored order (sign,
  // which every fact table has, and materialised columns apart).
  for (const table of FACT_TABLES) {
    const stored = of(table).filter((c) => c.name !== 'sign' && c.default_kind !== 'MATERIALIZED');
    t.deepEqual(
      stored.map((c) => [c.name, c.type]),
      columnTypesOf(table).map(([name, type]) => [name, type]),
      table,
    );
    t.true(
      of(table).some((c) => c.name === 'sign' && c.type === 'Int8'),
      `${table} has its sign`,
    );
  }

  // A table rows are appended to: every column, name for name, type for type, in the stored order.
  for (const [table, declared] of Object.entries(APPEND_SCHEMAS)) {
    t.deepEqual(
      of(table).map((c) => [c.name, c.type]),
      Object.entries(declared),
      table,
    );
  }

  // Every table a read may name has the columns its shape filters on, and keeps no generation,
  // model or prompt its shape leaves out (a read would then add up rows it should tell apart).
  for (const [table, shape] of Object.entries(READ_SHAPES)) {
    const names = new Set(of(table).map((c) => c.name));
    const wanted = ['brand_id', shape.period, ...shape.dimensions];
    if ('time' in shape) wanted.push(shape.time);
    if (shape.models) wanted.push('model', 'region');
    if (shape.prompts) wanted.push('prompt_id');
    if (shape.generations) wanted.push('generation');
    t.deepEqual(
      wanted.filter((c) => !names.has(c)),
      [],
      `${table} has the columns its shape names`,
    );
    t.is(names.has('generation'), shape.generations, `${table}: generations`);
    t.is(names.has('model'), shape.models, `${table}: models`);
    t.is(names.has('prompt_id'), shape.prompts, `${table}: prompts`);
  }

  // answer_rows_in's views read each tuple's fields in the declared order (e.1 is the first).
  const views = await ch.system<{ name: string; as_select: string }>(
    `SELECT name, as_select FROM system.tables WHERE database = currentDatabase() AND name IN
     ('answer_rows_in_entities_mv', 'answer_rows_in_citations_mv')`,
  );
  for (const [view, { fields }] of [
    ['answer_rows_in_entities_mv', ANSWER_ROWS_IN.entity_rows],
    ['answer_rows_in_citations_mv', ANSWER_ROWS_IN.citation_rows],
  ] as const) {
    const select = views.find((v) => v.name === view)?.as_select ?? '';
    const read = [...select.matchAll(/\b[ec]\.(\d+) AS (\w+)/g)].map((m) => [Number(m[1]), m[2]]);
    t.deepEqual(
      read,
      fields.map((f, i) => [i + 1, f]),
      view,
    );
  }
});
