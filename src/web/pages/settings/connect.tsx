// Settings > Connect: the MCP address and the lines to paste into Claude Code, Claude Desktop and
// Cursor; and the OAuth applications connected to the person's account, each with Disconnect,
// which ends its tokens at once.
import { DataTable } from '../../components/data-table.tsx';
import { useState } from 'preact/hooks';
import { get, post } from '../../api.ts';
import { dateTime } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { CopyField } from '../../components/copy-field.tsx';
import { Confirm } from '../../components/confirm.tsx';
import { Empty, PageHead, Panel, Pending } from '../../components/page.tsx';

interface Connect {
  mcp_url: string;
  applications: { client_id: string; name: string | null; connected_at: string }[];
}

const appName = (a: Connect['applications'][number]) => a.name ?? a.client_id;

/** The lines of the README's "Connect an assistant", with this service's address. */
function snippets(url: string) {
  const claudeCode = `claude mcp add --transport http answerscope ${url} --header "Authorization: Bearer ans_..."`;
  const desktop = `{
  "mcpServers": {
    "answerscope": {
      "command": "npx",
      "args": ["-y", "mcp-remote", "${url}", "--header", "Authorization:\${ANSWERSCOPE_AUTH}"],
      "env": { "ANSWERSCOPE_AUTH": "Bearer ans_..." }
    }
  }
}`;
  const cursor = `{
  "mcpServers": {
    "answerscope": {
      "url": "${url}",
      "headers": { "Authorization": "Bearer \${env:ANSWERSCOPE_API_KEY}" }
    }
  }
}`;
  return { claudeCode, desktop, cursor };
}

function Snippet(p: { id: string; title: string; intro: string; code: string }) {
  return (
    <div>
      <h3 id={p.id}>{p.title}</h3>
      <p class="muted">{p.intro}</p>
      {/* Wrapped, never scrolled: nothing here needs the keyboard to be read. */}
      <pre class="snippet">
        <code>{p.code}</code>
      </pre>
    </div>
  );
}

export function ConnectPage() {
  const data = useLoad(() => get<Connect>('/connect'), []);
  const [leaving, setLeaving] = useState<Connect['applications'][number]>();
  const d = data.data;
  const s = d ? snippets(d.mcp_url) : undefined;
  return (
    <>
      <PageHead title="Connect" intro="Use your figures from an AI assistant through MCP." />
      <Pending load={data} />
      {d && s && (
        <>
          <Panel title="MCP address">
            <CopyField
              id="mcp-url"
              label="MCP server URL"
              value={d.mcp_url}
              hint={
                "Assistants that connect with OAuth (Claude's custom connectors) need only this address; you " +
                'allow them on a page of this site.'
              }
            />
          </Panel>
          <Panel title="With an API key">
            <div class="stack-gap">
              <Snippet
                id="snippet-claude-code"
                title="Claude Code"
                intro="Run in a terminal; add --scope user for every project."
                code={s.claudeCode}
              />
              <Snippet
                id="snippet-claude-desktop"
                title="Claude Desktop"
                intro="In claude_desktop_config.json (Settings, Developer, Edit Config), then restart Claude Desktop."
                code={s.desktop}
              />
              <Snippet
                id="snippet-cursor"
                title="Cursor"
                intro="In ~/.cursor/mcp.json, with ANSWERSCOPE_API_KEY=ans_... in Cursor's environment."
                code={s.cursor}
              />
            </div>
          </Panel>
          <Panel title="Connected applications">
            {!d.applications.length && <Empty>No application is connected to your account.</Empty>}
            {d.applications.length > 0 && (
              <DataTable<Connect['applications'][number]>
                caption="Connected applications"
                rows={d.applications}
                rowKey={(a) => a.client_id}
                columns={[
                  {
                    key: 'name',
                    label: 'Application',
                    render: (a) => (
                      <>
                        {appName(a)}
                        <br />
                        <span class="muted">The name it gave itself</span>
                      </>
                    ),
                  },
                  { key: 'connected_at', label: 'Connected', render: (a) => dateTime(a.connected_at) },
                  {
                    key: 'actions',
                    label: 'Actions',
                    hideLabel: true,
                    cellClass: 'actions-cell',
                    render: (a) => (
                      <button type="button" class="danger" onClick={() => setLeaving(a)}>
                        Disconnect <span class="sr-only">{appName(a)}</span>
                      </button>
                    ),
                  },
                ]}
              />
            )}
          </Panel>
        </>
      )}
      {leaving && (
        <Confirm
          title={`Disconnect ${appName(leaving)}?`}
          confirmLabel="Disconnect"
          onClose={() => setLeaving(undefined)}
          onConfirm={async () => {
            await post(`/connect/${encodeURIComponent(leaving.client_id)}/disconnect`);
            data.reload();
          }}
        >
          <p>Its tokens stop working at once. It can connect again only if you allow it again.</p>
        </Confirm>
      )}
    </>
  );
}
