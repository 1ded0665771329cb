// The latest answers at the page's filters (the answers operation, five), with a link to all of
// them in the explorer.
import { read } from '../../api.ts';
import { useLoad } from '../../load.ts';
import { Empty, Panel, Pending } from '../../components/page.tsx';
import { AnswerCard } from '../../components/answer-card.tsx';
import { type PartProps, useReport } from './part.ts';

export function LatestAnswers(p: PartProps & { aliases: Map<string, string[]> }) {
  const latest = useLoad(() => read('answers', { ...p.params, limit: '5' }), [p.paramsKey]);
  useReport(p.report, 'latest', !latest.loading);
  return (
    <Panel title="Latest answers" busy={latest.loading} actions={<a href={p.link()}>All answers</a>}>
      <Pending load={latest} />
      {latest.data && !latest.data.answers.length && <Empty>No answers in this range.</Empty>}
      {latest.data && latest.data.answers.length > 0 && (
        <div class="answers">
          {latest.data.answers.map((a) => (
            <AnswerCard key={a.id} answer={a} aliases={p.aliases} clip={300} maxCitations={3} />
          ))}
        </div>
      )}
    </Panel>
  );
}
