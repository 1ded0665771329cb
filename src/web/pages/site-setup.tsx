// How a brand's site sends data in, shown where a page has none yet: the tracking script for AI
// traffic (docs/traffic.md) and server logs for AI crawlers (docs/crawlers.md). The tracking id and
// the addresses come from the app's site-setup route; nothing here is computed.
import { get } from '../api.ts';
import { useLoad } from '../load.ts';
import { CopyField } from '../components/copy-field.tsx';
import { Pending } from '../components/page.tsx';

interface SiteSetup {
  tracking_id: string;
  script_url: string;
  crawler_logs_url: string;
  domains: string[];
}

function useSiteSetup(brandId: string) {
  return useLoad(() => get<SiteSetup>(`/brands/${encodeURIComponent(brandId)}/site-setup`), [brandId]);
}

export function TrackingSetup(p: { brandId: string }) {
  const setup = useSiteSetup(p.brandId);
  if (!setup.data) return <Pending load={setup} />;
  const s = setup.data;
  const snippet = `<script async src="${s.script_url}" data-site="${s.tracking_id}"></script>`;
  return (
    <div class="setup">
      <p>
        No visit from an AI platform is recorded for these dates. Visits are recorded by a small script on your site
        (about 1 KB, no cookies, no personal data): it reports a page view only when the visitor came from an AI answer.
      </p>
      <ol class="steps">
        <li>
          <CopyField
            id="tracking-snippet"
            label="Add this line to every page, before </head>"
            value={snippet}
            hint={
              `Tracking id ${s.tracking_id}. Only pages on ` +
              `${s.domains.length ? s.domains.join(', ') : "the brand's domains"} (and their sub-domains) count.`
            }
          />
        </li>
        <li>
          Open a page of your site from a link in an AI answer (ChatGPT, Perplexity, Gemini…), or add{' '}
          <code>?utm_source=chatgpt.com</code> to its address. The visit shows here within a minute.
        </li>
      </ol>
    </div>
  );
}

export function CrawlerLogSetup(p: { brandId: string }) {
  const setup = useSiteSetup(p.brandId);
  if (!setup.data) return <Pending load={setup} />;
  const s = setup.data;
  const host = s.domains[0] ?? 'www.example.com';
  const domains = s.domains.length ? s.domains.join(', ') : "the brand's domains";
  const example = `curl -X POST '${s.crawler_logs_url}' \\
  -H 'Authorization: Bearer ans_…' -H 'Content-Type: application/json' \\
  -d '[{"timestamp": "2026-11-24T10:00:00Z", "method": "GET", "host": "${host}",
        "path": "/pricing", "status_code": 200, "ip": "20.171.206.10",
        "user_agent": "Mozilla/5.0 (compatible; GPTBot/1.3; +https://openai.com/gptbot)"}]'`;
  return (
    <div class="setup">
      <p>
        No AI crawler hit is recorded for these dates. Crawler hits come from your web server's access logs: only
        requests by known AI crawlers and agents to {domains} are kept, and client addresses are used once, to check the
        bot, and never stored.
      </p>
      <ol class="steps">
        <li>
          <CopyField
            id="crawler-logs-url"
            label="Post batches of up to 1,000 log entries (JSON) to"
            value={s.crawler_logs_url}
            hint="With an API key (Settings > API keys) as a Bearer token."
          />
          <p class="hint">For example:</p>
          <pre class="snippet">{example}</pre>
        </li>
        <li>
          Or import a log file (combined log format or JSON Lines) on the server:
          <pre class="snippet">{`answerscope crawler-logs import /var/log/nginx/access.log --brand ${p.brandId}`}</pre>
        </li>
      </ol>
    </div>
  );
}
