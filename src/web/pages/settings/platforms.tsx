// Settings > Platforms: each platform as this server captures it (the platforms operation):
// configured or not and by which variable, the model it asks, whether the plan captures it, and
// the organization's last capture on it with its status and error.
import { read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { dateTime } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { DataTable } from '../../components/data-table.tsx';
import { PageHead, Panel, Pending } from '../../components/page.tsx';
import { platformName } from '../../../tenancy/tracked.ts';
import '../first-run.css';

export type PlatformRow = Result<'platforms'>[number];

const STATUS: Record<string, string> = {
  succeeded: 'Succeeded',
  failed: 'Failed',
  no_answer: 'No AI answer shown',
  not_configured: 'Not configured',
  running: 'Running',
  pending: 'Waiting',
};

export function PlatformsPage() {
  const list = useLoad(() => read('platforms', {}, 'first'), []);
  const simulated = list.data?.some((p) => p.engine === 'simulated');
  return (
    <>
      <PageHead
        title="Platforms"
        intro={
          'Which AI platforms this server can ask, and how their last capture went. A platform is configured ' +
          "when its provider's key is set in the server's environment."
        }
      />
      <Pending load={list} />
      {list.data && (
        <Panel title="Platforms" id="platforms-heading">
          {simulated && (
            <p class="notice" role="status">
              This server runs the simulated engine (TRACKING_ENGINE=simulated): its answers are made up for trying
              Answerscope, and no provider is asked.
            </p>
          )}
          <DataTable
            caption="Platforms"
            class="platforms-table"
            rowKey={(r) => r.platform}
            rows={list.data}
            columns={[
              { key: 'platform', label: 'Platform', render: (r) => <strong>{platformName(r.platform)}</strong> },
              {
                key: 'configured',
                label: 'Configured',
                // Which variable makes it so: the provider's key, or the simulated engine answering every platform.
                render: (r) =>
                  r.configured ? (
                    <span>
                      <span class="badge ok">Configured</span>{' '}
                      <span class="muted">
                        {r.engine === 'simulated' ? 'TRACKING_ENGINE=simulated' : `${r.key_variable} is set`}
                      </span>
                    </span>
                  ) : (
                    <span>
                      <span class="badge bad">Not configured</span> <span class="muted">set {r.key_variable}</span>
                    </span>
                  ),
              },
              { key: 'key_variable', label: 'Variable', render: (r) => <code>{r.key_variable}</code> },
              { key: 'model', label: 'Model', render: (r) => (r.model ? <code>{r.model}</code> : '—') },
              {
                key: 'on_plan',
                label: 'On your plan',
                render: (r) => (r.on_plan ? 'Yes' : <span class="muted">No</span>),
              },
              {
                key: 'last_capture',
                label: 'Last capture',
                render: (r) =>
                  r.last_capture ? (
                    <span>
                      {STATUS[r.last_capture.status] ?? r.last_capture.status}{' '}
                      <span class="muted">{dateTime(r.last_capture.at)}</span>
                    </span>
                  ) : (
                    <span class="muted">None yet</span>
                  ),
              },
              {
                key: 'error',
                label: 'Error',
                render: (r) => r.last_capture?.error ?? '—',
              },
            ]}
          />
        </Panel>
      )}
    </>
  );
}
