// The app's server-rendered pages (sign-in, invitations, the shell the script starts in): one
// layout with the bundle's style sheet, every interpolated value escaped.
import type { AppAssets } from './assets.ts';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A page: `head` goes in the head (trusted markup), `body` in the body (trusted markup built with escapeHtml). */
export function htmlPage(assets: AppAssets, title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Answerscope</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets.style}">
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

/** A labelled input with its message beside it (aria-describedby), marked invalid when there is one. */
export function field(opts: {
  id: string;
  label: string;
  type: string;
  value?: string;
  autocomplete: string;
  error?: string;
  hint?: string;
  readonly?: boolean;
}): string {
  const described = [opts.hint ? `${opts.id}-hint` : '', opts.error ? `${opts.id}-error` : ''].filter(Boolean);
  return `<div class="field">
<label for="${opts.id}">${escapeHtml(opts.label)}</label>
<input id="${opts.id}" name="${opts.id}" type="${opts.type}" autocomplete="${opts.autocomplete}" required${
    opts.readonly ? ' readonly' : ''
  }${opts.value !== undefined ? ` value="${escapeHtml(opts.value)}"` : ''}${
    described.length ? ` aria-describedby="${described.join(' ')}"` : ''
  }${opts.error ? ' aria-invalid="true"' : ''}>
${opts.hint ? `<p class="hint" id="${opts.id}-hint">${escapeHtml(opts.hint)}</p>` : ''}${
  opts.error ? `<p class="field-error" id="${opts.id}-error">${escapeHtml(opts.error)}</p>` : ''
}
</div>`;
}

/** The centred card of the pages a person sees before the app: sign-in, invitations, errors. */
export function authCard(heading: string, content: string): string {
  return `<main class="auth">
<div class="auth-card">
<p class="wordmark" aria-hidden="true"><span class="wordmark-dot"></span>Answerscope</p>
<h1>${escapeHtml(heading)}</h1>
${content}
</div>
</main>`;
}

/** The page the app's script starts in; the session's change token travels in a meta tag. */
export function shellPage(assets: AppAssets, csrf: string): string {
  return htmlPage(
    assets,
    'App',
    '<div id="root"></div>\n' +
      '<noscript><main class="auth"><div class="auth-card"><p>The Answerscope app needs JavaScript.</p></div></main>' +
      '</noscript>',
    `<meta name="csrf-token" content="${escapeHtml(csrf)}">
<script type="module" src="${assets.script}"></script>`,
  );
}
