// A brand's workspace settings (/app/brands/:brandId/settings): what section 19's operations do,
// as forms: the brand, its competitors, topics and prompts, and the re-analysis a change queues,
// followed until it finishes. Every write is the API's own operation run as the signed-in person.
import { useState } from 'preact/hooks';
import { read } from '../../api.ts';
import { useApp } from '../../context.ts';
import { useLoad } from '../../load.ts';
import { PageHead, Pending, Problem } from '../../components/page.tsx';
import type { PageProps } from '../../page-props.ts';
import { BrandForm } from './brand-form.tsx';
import { SamplingForm } from './sampling-form.tsx';
import { Competitors } from './competitors.tsx';
import { Reanalysis } from './reanalysis.tsx';
import { Prompts } from './prompts.tsx';
import { Topics } from './topics.tsx';
import './workspace.css';

export function WorkspacePage(p: PageProps) {
  const brandId = p.params.brandId;
  const app = useApp();
  // Bumped by a change that may have queued a re-analysis: the status is read again at once.
  const [round, setRound] = useState(0);
  const changed = (queued: boolean) => queued && setRound((r) => r + 1);
  const brand = useLoad(() => read('brands').then((list) => list.find((b) => b.id === brandId)), [brandId]);
  const topics = useLoad(() => read('topics', { brand_id: brandId }), [brandId]);
  const prompts = useLoad(() => read('prompts', { brand_id: brandId, limit: '500' }), [brandId]);
  // A prompt's topic and a topic's prompt count follow each other's changes.
  const promptsOrTopicsChanged = () => {
    topics.reload();
    prompts.reload();
  };
  const name = brand.data?.name ?? app.brand?.name ?? 'Brand';
  return (
    <>
      <PageHead
        title="Workspace settings"
        intro={`What ${name} is tracked against: its names and domains, competitors, topics and prompts.`}
      />
      <Reanalysis brandId={brandId} round={round} />
      <Pending load={brand} />
      {brand.data && (
        <BrandForm
          brand={brand.data}
          onSaved={(queued) => {
            changed(queued);
            brand.reload();
            app.reloadBrands?.();
          }}
        />
      )}
      {brand.data && <SamplingForm brand={brand.data} onSaved={brand.reload} />}
      <Competitors brandId={brandId} onChanged={changed} />
      {topics.error && <Problem message={topics.error} />}
      <Topics brandId={brandId} topics={topics.data} onChanged={promptsOrTopicsChanged} />
      {prompts.error && <Problem message={prompts.error} />}
      <Prompts brandId={brandId} prompts={prompts.data} topics={topics.data ?? []} onChanged={promptsOrTopicsChanged} />
    </>
  );
}
