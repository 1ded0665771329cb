// Settings > Import in the app (docs/app.md): another tracker's answer export, uploaded as the
// file's text with the tool's name and the column mapping, imported exactly as `answerscope
// import-tracker` imports it (tracking/ingest/tracker-import.ts), answered with what was imported,
// the lines refused (number and reason) and the agreement report. An import refused before
// anything is stored (a mapped column the file lacks, a bad name) is a 400 naming its field.
import type Router from '@koa/router';
import type Koa from 'koa';
import type { AppDeps } from '../../operations/context.ts';
import { ApiError } from '../../errors.ts';
import { readJsonBody } from '../../runtime/json-body.ts';
import { brandInOrganization } from '../../tenancy/brands.ts';
import { importTracker, ImportRefused } from '../../tracking/ingest/tracker-import.ts';
import { importAgreement } from '../../analytics/import-agreement.ts';
import { UUID_RE } from '../../uuid.ts';
import type { Session } from './session-cookie.ts';

/** The largest upload: the file's text in a JSON body (about 10,000 answers of a typical size). */
export const IMPORT_MAX_BYTES = 20_000_000;
/** The disagreeing answers the page lists. */
const LISTED = 100;

/** The JSON route of Settings > Import, on the app's API router (after its session and change checks). */
export function importRoutes(router: Router, deps: AppDeps, sessionOf: (ctx: Koa.Context) => Session): void {
  router.post('/brands/:brandId/import', async (ctx) => {
    const { organizationId } = sessionOf(ctx).identity;
    const id = ctx.params.brandId;
    if (!UUID_RE.test(id)) throw new ApiError(404, 'Brand not found');
    const brand = await brandInOrganization(deps.stores.pg, organizationId, id.toLowerCase());
    const b = (await readJsonBody(ctx, IMPORT_MAX_BYTES)) as Record<string, unknown> | null;
    const text = (name: string) => (typeof b?.[name] === 'string' ? (b[name] as string) : '');
    if (!text('format')) throw new ApiError(400, "The tool's name is required", 'format');
    if (!text('content').trim()) throw new ApiError(400, 'Choose a file that is not empty', 'file');
    const map = b?.map && typeof b.map === 'object' && !Array.isArray(b.map) ? (b.map as Record<string, string>) : {};
    try {
      const imported = await importTracker(deps.stores, {
        body: text('content'),
        fileName: text('file_name') || 'upload.csv',
        brand,
        format: text('format'),
        map: Object.fromEntries(Object.entries(map).filter(([, v]) => typeof v === 'string')),
      });
      ctx.body = {
        import: imported,
        agreement: await importAgreement(deps.stores.pg, brand.id, imported.source, LISTED),
      };
    } catch (err) {
      if (err instanceof ImportRefused) throw new ApiError(400, err.message, err.field);
      throw err;
    }
  });
}
