// The app's pages read what the operations' declarations say they answer: `read` and `change`
// (src/web/api.ts) take an operation's name and type its params and its answer from the operation's
// zod schemas (src/web/operation-types.ts), so a renamed field fails the type check of the page that
// reads it. A type argument written at a call would restate the answer by hand and silence that.
// The second half is for `tsc --noEmit` (npm test runs it): each line it must refuse is marked.
// test-process: shared
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ROOT, sourceFiles } from './source-files.ts';
import { change, read } from '../../src/web/api.ts';
import { filterParams, withoutTopic } from '../../src/web/filters.ts';

/** Where read, change and changeAsTyped are declared: their own type parameters are no call's. */
const DECLARED_IN = 'src/web/api.ts';
const TYPED_CALL = /\b(?:read|change|changeAsTyped)\s*</;

test('no page of the app passes a type argument to read or change: the operation types the answer', (t) => {
  const files = sourceFiles('src/web').filter((file) => file !== DECLARED_IN);
  t.true(files.length > 50, 'the reader sees the pages');
  const typed = files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (TYPED_CALL.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
  t.deepEqual(typed, [], 'drop the type argument: the answer type comes from the operation (operation-types.ts)');
});

/** Never run: what the type check must refuse, each line marked @ts-expect-error (unused: an error itself). */
function refusedByTheTypeCheck() {
  // @ts-expect-error: no operation has this name
  read('no-such-operation');
  // @ts-expect-error: a change is not a read (its GET route answers 404)
  read('add-competitor', { brand_id: 'b' });
  // @ts-expect-error: competitors takes brand_id, not brand
  read('competitors', { brand: 'b' });
  void read('competitors', { brand_id: 'b' }).then((list) => {
    list.map((c) => c.aliases);
    // @ts-expect-error: a competitor has no field `alias`
    list.map((c) => c.alias);
  });
  // A page's filters spread into a read are checked too: each must be one of the operation's params.
  const filters = filterParams({ date_from: '2026-01-01', date_to: '2026-01-31', topic_id: 't' });
  void read('citations', { brand_id: 'b', ...filters, limit: '10' });
  // @ts-expect-error: competitors takes no dates, no topic (spread in)
  read('competitors', { brand_id: 'b', ...filters });
  // @ts-expect-error: visibility-confidence takes no topic (spread in)
  read('visibility-confidence', { brand_id: 'b', ...filters });
  void read('visibility-confidence', withoutTopic({ brand_id: 'b', ...filters }));
  const renamed: { brand_id: string; date_since: string } = { brand_id: 'b', date_since: '2026-01-01' };
  // @ts-expect-error: citations takes date_from, not date_since (spread in)
  read('citations', { ...renamed });
  // @ts-expect-error: a read is not a change (its POST route answers 404)
  change('competitors', { brand_id: 'b' });
  // @ts-expect-error: add-competitor's name is a string
  change('add-competitor', { brand_id: 'b', name: 1 });
  void change('add-competitor', { brand_id: 'b', name: 'Initech' }).then((made) => {
    // @ts-expect-error: add-competitor answers reanalysis_queued, not queued
    return made.queued;
  });
}

test('the type check holds the expectations above (tsc --noEmit checks this file; nothing here runs them)', (t) => {
  t.is(typeof refusedByTheTypeCheck, 'function');
});
