// OAuth test helpers: what a client does by hand (register, PKCE, the authorization URL, the token
// requests), a person answering the consent page over plain HTTP (its two forms), and an
// OAuthClientProvider for the MCP SDK's own client whose "browser" is that person.
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { answerOf, call, type Reply } from '../../helpers/server.ts';

type Server = { url: string };

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

export async function registerClient(server: Server, body: Record<string, unknown> = {}): Promise<Reply> {
  return call(server, 'POST', '/oauth/register', {
    body: { client_name: 'Test assistant', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...body },
  });
}

export async function newClient(server: Server): Promise<string> {
  const res = await registerClient(server);
  if (res.status !== 201) throw new Error(`registration failed: ${JSON.stringify(res.body)}`);
  return res.body.client_id;
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(server: Server, params: Record<string, string | undefined>): string {
  const url = new URL('/oauth/authorize', server.url);
  for (const [k, v] of Object.entries({ response_type: 'code', code_challenge_method: 'S256', ...params })) {
    if (v !== undefined) url.searchParams.set(k, v);
  }
  return url.href;
}

export interface Page {
  status: number;
  html: string;
  headers: Headers;
  nonce?: string;
}

const page = async (res: Response): Promise<Page> => {
  const html = await res.text();
  return { status: res.status, html, headers: res.headers, nonce: /name="nonce" value="([^"]+)"/.exec(html)?.[1] };
};

export async function openPage(url: string): Promise<Page> {
  return page(await fetch(url, { redirect: 'manual' }));
}

/** Posts the consent form; a redirect comes back as the page's `location` header. */
export async function postForm(server: Server, fields: Record<string, string>): Promise<Page> {
  return page(
    await fetch(new URL('/oauth/authorize', server.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    }),
  );
}

/** A person on the consent page: pastes the key, reads the organization, allows (or denies); where it sends them. */
export async function consent(
  server: Server,
  url: string,
  key: string,
  decision: 'allow' | 'deny' = 'allow',
): Promise<{ location: URL; organizationShown: string }> {
  const first = await openPage(url);
  if (first.status !== 200 || !first.nonce) throw new Error(`consent page: ${first.status} ${first.html}`);
  const second = await postForm(server, { nonce: first.nonce, action: 'continue', key });
  if (second.status !== 200 || !second.nonce) throw new Error(`key step: ${second.status} ${second.html}`);
  const organizationShown = /<strong id="organization">([^<]*)<\/strong>/.exec(second.html)?.[1] ?? '';
  const answer = await postForm(server, { nonce: second.nonce, action: decision });
  const location = answer.headers.get('location');
  if (!location) throw new Error(`no redirect: ${answer.status} ${answer.html}`);
  return { location: new URL(location), organizationShown };
}

/** A form POST to the token or revocation endpoint, answered as `call` answers. */
export async function formPost(
  server: Server,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
  return answerOf(res);
}

export const tokenRequest = (server: Server, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  formPost(server, '/oauth/token', fields, headers);

/** A client through the whole flow by hand: registered, consented with `key`, code exchanged. */
export async function grantTokens(server: Server, key: string) {
  const clientId = await newClient(server);
  const { verifier, challenge } = pkce();
  const { location } = await consent(
    server,
    authorizeUrl(server, { client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, state: 's' }),
    key,
  );
  const code = location.searchParams.get('code') ?? '';
  const res = await tokenRequest(server, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(res.body)}`);
  return { clientId, code, verifier, ...(res.body as { access_token: string; refresh_token: string }) };
}

/**
 * The MCP SDK's client side of OAuth, kept in memory. Its browser is a person who consents with
 * `key` over HTTP; the code they come back with waits in `code` for `transport.finishAuth`.
 */
export class TestOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  code?: string;
  /** The state the SDK sent and the one the redirect carried back. */
  states: { sent?: string; returned?: string } = {};
  private stateValue = `st-${randomBytes(8).toString('hex')}`;

  constructor(
    private server: Server,
    private key: string,
  ) {}

  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK test client',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.stateValue;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.states.sent = url.searchParams.get('state') ?? undefined;
    const { location } = await consent(this.server, url.href, this.key);
    this.states.returned = location.searchParams.get('state') ?? undefined;
    this.code = location.searchParams.get('code') ?? undefined;
  }
}
