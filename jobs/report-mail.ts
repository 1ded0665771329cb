// What a report email says (docs/app.md, "Reports by email"): the six figures by their card names
// with their change and verdict (the visibility-change operation), the competitors whose AI
// visibility score moved (competitor-comparison over the period and the one before it), and the top
// gap domains (citation-gap), each linking into the app at the same dates. HTML, with a plain-text
// part saying the same. Pure: the figures come in, the message goes out.
import { METRIC_NAMES, METRIC_UNITS, VERDICT_WORDS } from '../src/analytics/metric-names.ts';
import type { Period } from '../src/reports/subscriptions.ts';

export interface ReportFigures {
  brand: { id: string; name: string };
  frequency: 'daily' | 'weekly';
  period: Period;
  change: {
    previous: { date_from: string; date_to: string };
    metrics: {
      metric: string;
      current: number | null;
      previous: number | null;
      change: number | null;
      verdict: keyof typeof VERDICT_WORDS;
    }[];
  };
  movers: { competitor_id: string; name: string; current: number | null; previous: number | null; change: number }[];
  gap: { domain: string; competitor_answers: number }[];
}

export interface ReportMail {
  subject: string;
  text: string;
  html: string;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const written = (n: number | null, unit: string) => (n === null ? '—' : `${n}${unit}`);
const periodWords = (p: Period) => (p.from === p.to ? p.from : `${p.from} to ${p.to}`);

/** An address of the app at the report's dates (the filters the figures were read with). */
export function appLink(appUrl: string, brandId: string, period: Period, page = '', more: Record<string, string> = {}) {
  const query = new URLSearchParams({ date_from: period.from, date_to: period.to, ...more });
  return `${appUrl}/app/brands/${encodeURIComponent(brandId)}${page}?${query}`;
}

export function reportMail(f: ReportFigures, appUrl: string, unsubscribeUrl: string): ReportMail {
  const overview = appLink(appUrl, f.brand.id, f.period);
  const competitors = appLink(appUrl, f.brand.id, f.period, '/competitors');
  const citations = appLink(appUrl, f.brand.id, f.period, '/citations');
  const before = periodWords({ from: f.change.previous.date_from, to: f.change.previous.date_to });
  const subject = `${f.brand.name}: your ${f.frequency} Answerscope report, ${periodWords(f.period)}`;

  const figures = f.change.metrics.map((m) => {
    const key = m.metric as keyof typeof METRIC_NAMES;
    const unit = METRIC_UNITS[key] ?? '';
    return {
      name: METRIC_NAMES[key] ?? m.metric,
      value: written(m.current, unit),
      change: m.change === null ? 'no change to compare' : `${signed(m.change)}${unit === '%' ? ' pts' : ''}`,
      verdict: VERDICT_WORDS[m.verdict],
    };
  });

  const text = [
    `${f.brand.name}, ${periodWords(f.period)} (compared with ${before})`,
    '',
    ...figures.map((x) => `${x.name}: ${x.value} (${x.change}, ${x.verdict})`),
    `Open the overview: ${overview}`,
    '',
    'Competitors that moved (AI visibility score)',
    ...(f.movers.length
      ? f.movers.map(
          (c) => `${c.name}: ${written(c.current, '')} (${signed(c.change)} from ${written(c.previous, '')})`,
        )
      : ['No competitor moved.']),
    `Open competitors: ${competitors}`,
    '',
    'Top gap domains (cited with competitors, never with you)',
    ...(f.gap.length
      ? f.gap.map((d) => `${d.domain}: ${d.competitor_answers} answers naming a competitor`)
      : ['No gap domain in this period.']),
    `Open citations: ${citations}`,
    '',
    `Stop these emails: ${unsubscribeUrl}`,
    '',
  ].join('\n');

  const row = (cells: string[]) => `<tr>${cells.map((c) => `<td style="padding:4px 8px">${c}</td>`).join('')}</tr>`;
  const link = (href: string, label: string) => `<a href="${esc(href)}">${esc(label)}</a>`;
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#161b24">
<h1 style="font-size:20px">${esc(f.brand.name)}, ${esc(periodWords(f.period))}</h1>
<p>Compared with ${esc(before)}.</p>
<table>
${figures.map((x) => row([link(overview, x.name), esc(x.value), esc(x.change), esc(x.verdict)])).join('\n')}
</table>
<h2 style="font-size:16px">Competitors that moved (AI visibility score)</h2>
${
  f.movers.length
    ? `<table>\n${f.movers
        .map((c) =>
          row([
            link(competitors, c.name),
            esc(written(c.current, '')),
            esc(`${signed(c.change)} from ${written(c.previous, '')}`),
          ]),
        )
        .join('\n')}\n</table>`
    : '<p>No competitor moved.</p>'
}
<h2 style="font-size:16px">Top gap domains</h2>
<p>Cited in answers naming a competitor, never in answers naming you.</p>
${
  f.gap.length
    ? `<table>\n${f.gap
        .map((d) =>
          row([
            link(appLink(appUrl, f.brand.id, f.period, '/answers', { domain: d.domain }), d.domain),
            esc(`${d.competitor_answers} answers naming a competitor`),
          ]),
        )
        .join('\n')}\n</table>`
    : '<p>No gap domain in this period.</p>'
}
<p>${link(citations, 'Open citations')}</p>
<p style="color:#596270;font-size:13px">${link(unsubscribeUrl, 'Stop these emails')}</p>
</body></html>
`;
  return { subject, text, html };
}
