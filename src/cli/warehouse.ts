// `answerscope warehouse grant --org ID --user NAME [--password P] [--apply]`: the SQL that gives an
// analyst a read-only ClickHouse user limited to the warehouse views (clickhouse/010) and, by row
// policies, to one organization's brands (docs/warehouse.md "Read-only users"). It prints the
// statements; with --apply it runs them, which needs a real server: chDB has no users.
import { createHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import { UserError } from '../errors.ts';
import { allBrands } from '../tenancy/brands.ts';
import { organizationExists } from '../tenancy/organizations.ts';

/** The views of clickhouse/010_warehouse_views.sql: the only objects the user may read. */
export const WAREHOUSE_VIEWS = [
  'v_answers',
  'v_answer_entities',
  'v_citations',
  'v_brand_daily',
  'v_competitor_daily',
  'v_ai_visits',
];

// A plain identifier keeps quoting trivial; ClickHouse accepts far more, analysts need no more.
const USER_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface GrantSpec {
  user: string;
  database: string;
  cluster?: string;
  /** The organization's brands, listed from Postgres. */
  brandIds: string[];
  /** Hex SHA-256 of the password: the statements never hold the password itself. */
  passwordSha256: string;
}

/**
 * The statements, in the order they must run: the user, then the row policies, then the grants,
 * so there is no moment when the user can read a view without its policy.
 */
export function grantStatements(spec: GrantSpec): string[] {
  if (!USER_RE.test(spec.user))
    throw new UserError(`--user must be a plain identifier (letters, digits, _), got ${JSON.stringify(spec.user)}`);
  for (const id of spec.brandIds) if (!UUID_RE.test(id)) throw new Error(`not a brand id: ${id}`);
  if (!/^[0-9a-f]{64}$/.test(spec.passwordSha256)) throw new Error('passwordSha256 must be 64 hex digits');
  const cluster = spec.cluster ? ` ON CLUSTER \`${spec.cluster}\`` : '';
  const user = `\`${spec.user}\``;
  const db = `\`${spec.database}\``;
  // Brand ids are checked UUIDs, so splicing them is safe; an organization without brands sees nothing.
  const rows = spec.brandIds.length ? `brand_id IN (${spec.brandIds.map((id) => `'${id}'`).join(', ')})` : '0';
  return [
    `CREATE USER OR REPLACE ${user}${cluster} IDENTIFIED WITH sha256_hash BY '${spec.passwordSha256}' DEFAULT ` +
      `DATABASE ${db} SETTINGS readonly = 2`,
    ...WAREHOUSE_VIEWS.map(
      (v) =>
        `CREATE ROW POLICY OR REPLACE \`${spec.user}_rows\`${cluster} ON ${db}.\`${v}\` FOR SELECT ` +
        `USING ${rows} TO ${user}`,
    ),
    ...WAREHOUSE_VIEWS.map((v) => `GRANT${cluster} SELECT ON ${db}.\`${v}\` TO ${user}`),
  ];
}

export const WAREHOUSE_USAGE = 'warehouse grant --org ORG_ID --user NAME [--password P] [--apply]';

/** `warehouse SUB ...args` of the command line. */
export async function runWarehouseCommand(
  env: { stores: Stores; config: Config },
  sub: string | undefined,
  argv: string[],
) {
  const usage = `usage: answerscope ${WAREHOUSE_USAGE}`;
  if (sub !== 'grant') throw new UserError(`Unknown command: warehouse ${sub ?? ''}\n${usage}`);
  let values: { org?: string; user?: string; password?: string; apply?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        org: { type: 'string' },
        user: { type: 'string' },
        password: { type: 'string' },
        apply: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    throw new UserError(`${(err as Error).message}\n${usage}`);
  }
  if (!values.org || !UUID_RE.test(values.org.toLowerCase()))
    throw new UserError(`--org must be an organization id (UUID)\n${usage}`);
  if (!values.user) throw new UserError(`--user is required\n${usage}`);
  return warehouseGrant(env, {
    organizationId: values.org.toLowerCase(),
    user: values.user,
    password: values.password,
    apply: values.apply ?? false,
  });
}

export interface GrantResult {
  user: string;
  password: string;
  sql: string[];
  applied: boolean;
}

export async function warehouseGrant(
  env: { stores: Stores; config: Config },
  opts: { organizationId: string; user: string; password?: string; apply: boolean },
): Promise<GrantResult> {
  // Refuse before anything else: in embedded mode nothing could be applied.
  if (opts.apply && env.stores.ch.embedded) {
    throw new UserError(
      'warehouse grant --apply needs a ClickHouse server (CLICKHOUSE_URL): the embedded chDB has no users or ' +
        'row policies. Run it without --apply to print the SQL.',
    );
  }
  if (!(await organizationExists(env.stores.pg, opts.organizationId))) {
    throw new UserError(`Organization ${opts.organizationId} not found`);
  }
  const brands = await allBrands(env.stores.pg, { organizationIds: [opts.organizationId] });
  if (opts.password !== undefined && opts.password.length < 12)
    throw new UserError('--password must be at least 12 characters');
  const password = opts.password ?? randomBytes(18).toString('base64url');
  const sql = grantStatements({
    user: opts.user,
    database: env.config.clickhouse.database,
    cluster: env.config.clickhouse.cluster,
    brandIds: brands.map((b) => b.id),
    passwordSha256: createHash('sha256').update(password).digest('hex'),
  });
  if (opts.apply) {
    for (const [i, query] of sql.entries()) {
      try {
        await env.stores.ch.command({ query });
      } catch (err) {
        throw new UserError(
          `statement ${i + 1} of ${sql.length} failed (${(err as Error).message}); the ones before it were ` +
            `applied: ${query}`,
        );
      }
    }
  }
  return { user: opts.user, password, sql, applied: opts.apply };
}
