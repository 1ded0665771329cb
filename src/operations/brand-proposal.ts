// A brand proposed from its website (docs/workspace.md "A brand from its website"): the app's
// `New brand` page asks this first, the person edits the proposal, then `create-brand` makes it.
import { z } from 'zod';
import { operation } from './registry.ts';
import { organizationOf } from './workspace-writes.ts';
import { ApiError } from '../errors.ts';
import { AuditFailure } from '../audits/audit.ts';
import { proposeBrand } from '../audits/brand-proposal.ts';

/** How long the home page may take: the page half of a site audit's deadline. */
const proposalTimeout = (auditTimeoutMs: number) => Math.round(auditTimeoutMs / 2);

export const brandProposal = operation({
  name: 'brand-proposal',
  method: 'GET',
  openWorld: true, // fetches the site's home page
  errors: [
    { status: 400, message: 'website could not be read: The page is not HTML (Content-Type: application/json)' },
    { status: 400, message: 'website must be an address such as acme.example' },
  ],
  params: z.object({
    website: z.string().max(2000).describe("The brand's website, e.g. acme.example or https://acme.example/"),
  }),
  result: z.object({
    website: z.string().describe('The address that answered, after redirects'),
    name: z.string(),
    domain: z.string(),
    aliases: z.array(z.string()),
  }),
  description:
    "Fetches a website's home page (public addresses only, as site audits do) and proposes the brand's name, " +
    'domain and aliases from its JSON-LD Organization, og:site_name and title, for create-brand. Creates ' +
    'nothing. A site that does not answer, is not HTML or redirects to a private address is a 400 about ' +
    '`website`.',
  run: async (ctx, p) => {
    organizationOf(ctx);
    try {
      return await proposeBrand(p.website, {
        allowPrivate: ctx.config.allowPrivateUrls,
        timeoutMs: proposalTimeout(ctx.config.audits.timeoutMs),
      });
    } catch (err) {
      if (!(err instanceof AuditFailure)) throw err;
      // The address's own problems name the parameter already; a fetch's failure is said as read.
      const message = err.message.startsWith('website ') ? err.message : `website could not be read: ${err.message}`;
      throw new ApiError(400, message, 'website');
    }
  },
});
