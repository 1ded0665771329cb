// The consent page of GET/POST /oauth/authorize: plain HTML with one inline style sheet, no script
// and no external asset. A person signed in to the app sees the organization they act for and what
// the assistant may do, and allows with one button. Anyone else signs in on the page first, or
// pastes an `ans_` key and then sees the organization the key acts for. The Content-Security-Policy
// allows the form to post here only, and the redirect after it only to the client's registered
// redirect URI.
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import { isWebOrigin } from '../hosts.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #f6f6f4; margin: 0; }
main { max-width: 34rem; margin: 3rem auto; padding: 2rem; background: #fff;
  border: 1px solid #ccc; border-radius: 8px; }
h1 { font-size: 1.4rem; margin-top: 0; }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
input[type=password], input[type=email], select { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit;
  border: 1px solid #666; border-radius: 4px; }
.field-error { color: #8a1c1c; font-size: .9rem; margin: .25rem 0 0; }
button.wide { margin-top: 1rem; }
h2 { font-size: 1.1rem; margin: 2rem 0 0; padding-top: 1.5rem; border-top: 1px solid #ddd; }
.hint { color: #444; font-size: .9rem; margin: .25rem 0 0; }
.error { color: #8a1c1c; background: #fdecec; border: 1px solid #8a1c1c; padding: .5rem .75rem; border-radius: 4px; }
.actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
button { font: inherit; padding: .5rem 1.25rem; border-radius: 4px; border: 1px solid #1a1a1a; cursor: pointer; }
button.primary { background: #1a4d8f; border-color: #1a4d8f; color: #fff; }
button:focus-visible, input:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
dt { font-weight: 600; } dd { margin: 0 0 .75rem; }
`;

export interface ConsentClient {
  /** The name the client registered itself with: self-declared, so the page says so. */
  name: string | null;
  /** The host the answer goes back to. */
  redirectHost: string;
}

/** Sets the page's headers: no caching, no framing, and a CSP whose form may go here and to `redirectOrigin`. */
export function pageHeaders(ctx: Koa.Context, redirectOrigin?: string): string {
  const styleNonce = randomBytes(16).toString('base64');
  // form-action also governs the redirect that answers the form (Chromium), hence the client's origin,
  // written only when it is a well-formed origin: a host with `;` would add directives of its own
  // (registrations refuse one since, but a client registered before may still hold it).
  const formAction = redirectOrigin && isWebOrigin(redirectOrigin) ? `'self' ${redirectOrigin}` : "'self'";
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${styleNonce}'; form-action ${formAction}; ` +
      "base-uri 'none'; frame-ancestors 'none'",
  );
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/html; charset=utf-8';
  return styleNonce;
}

function layout(title: string, styleNonce: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} - Answerscope</title>
<style nonce="${styleNonce}">${STYLE}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

const clientLabel = (client: ConsentClient) =>
  client.name
    ? `<strong>${escapeHtml(client.name)}</strong> (a name it gave itself; it answers to ` +
      `${escapeHtml(client.redirectHost)})`
    : `An application at <strong>${escapeHtml(client.redirectHost)}</strong>`;

/** The sign-in form of step 1: `fields` is the app's Email, Password and Sign in (http/app/sign-in.ts). */
export interface SignInStep {
  fields: string;
}

/** Step 1, for a person who is not signed in: sign in, or paste a key. */
export function keyStep(
  client: ConsentClient,
  nonce: string,
  styleNonce: string,
  error?: string,
  signIn?: SignInStep,
): string {
  return layout(
    'Connect an assistant',
    styleNonce,
    `<h1>Connect an assistant to Answerscope</h1>
<p>${clientLabel(client)} asks to use Answerscope on your behalf.</p>
${
  signIn
    ? `<form method="post" action="/oauth/authorize" aria-labelledby="sign-in-heading">
<p id="sign-in-heading"><strong>Sign in</strong> to see the organization you would connect and allow it.</p>
<input type="hidden" name="nonce" value="${escapeHtml(nonce)}">
<input type="hidden" name="action" value="sign-in">
${signIn.fields}
</form>
<h2>Or use an API key</h2>`
    : ''
}
${error ? `<p class="error" role="alert" id="key-error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="nonce" value="${escapeHtml(nonce)}">
<label for="key">Answerscope API key</label>
<input type="password" id="key" name="key" required autocomplete="off" spellcheck="false"
  aria-describedby="key-hint${error ? ' key-error' : ''}"${error ? ' aria-invalid="true"' : ''}>
<p class="hint" id="key-hint">Starts with <code>ans_</code>. The assistant will act exactly as this key;
the next page shows the organization it acts for before anything is granted.</p>
<div class="actions">
<button type="submit" name="action" value="continue" class="primary">Continue</button>
<button type="submit" name="action" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  );
}

/** Who allows: a pasted key's owner, or the signed-in person with their organizations and form token. */
export interface Allower {
  organization: string;
  email: string;
  via?: 'key' | 'session';
  /** The signed-in person's organizations, the current first; a select when there are two or more. */
  organizations?: { id: string; name: string }[];
  /** The signed-in person's form token, bound to their session and this request. */
  token?: string;
}

function organizationChoice(who: Allower): string {
  if (!who.organizations || who.organizations.length < 2) {
    const only = who.organizations?.[0];
    return only ? `<input type="hidden" name="organization_id" value="${escapeHtml(only.id)}">` : '';
  }
  return `<label for="organization_id">Organization</label>
<select id="organization_id" name="organization_id">
${who.organizations.map((o) => `<option value="${escapeHtml(o.id)}">${escapeHtml(o.name)}</option>`).join('\n')}
</select>`;
}

/**
 * Step 2: the organization and what the assistant may do; allow or deny. `via`: a pasted key, or
 * the signed-in person (their grant acts as them, on the organization they choose).
 */
export function confirmStep(client: ConsentClient, nonce: string, styleNonce: string, who: Allower): string {
  const bySession = who.via === 'session';
  const several = (who.organizations?.length ?? 0) > 1;
  return layout(
    'Allow access',
    styleNonce,
    `<h1>${several ? 'Allow access?' : `Allow access to ${escapeHtml(who.organization)}?`}</h1>
<p>${clientLabel(client)} will act for ${
      several
        ? 'the organization you choose below'
        : `the organization <strong id="organization">${escapeHtml(who.organization)}</strong>`
    }
${bySession ? `as you (${escapeHtml(who.email)}).` : `through the API key of ${escapeHtml(who.email)}.`}</p>
<dl>
<dt>It may read</dt>
<dd>Every brand of the organization and its figures: visibility, competitors, citations, prompts,
AI traffic, shopping cards, content opportunities and site audits.</dd>
<dt>It may change, only when you explicitly ask</dt>
<dd>Generate content briefs and drafts, start site audits (these use the monthly quotas), update
opportunity statuses, accept or dismiss topic suggestions.</dd>
<dt>Until</dt>
<dd>${
      bySession
        ? 'You disconnect it in Settings, Connect, or leave the organization.'
        : "You revoke the key, or its owner leaves the organization: its access ends with the key's."
    }</dd>
</dl>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="nonce" value="${escapeHtml(nonce)}">
${who.token ? `<input type="hidden" name="token" value="${escapeHtml(who.token)}">` : ''}
${bySession ? organizationChoice(who) : ''}
<div class="actions">
<button type="submit" name="action" value="allow" class="primary">Allow</button>
<button type="submit" name="action" value="deny">Deny</button>
</div>
</form>`,
  );
}

/** An error that must not go back to the client (unknown client, bad redirect URI, stale form). */
export function errorPage(title: string, message: string, styleNonce: string): string {
  return layout(
    title,
    styleNonce,
    `<h1>${escapeHtml(title)}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>Start again from the assistant that sent you here.</p>`,
  );
}
