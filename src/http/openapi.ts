// The OpenAPI 3.1 document, generated from the operation registry and the declared raw endpoints
// (src/operations/raw-endpoints.ts, with their own limits): the same zod schemas that parse
// a request describe it here (`z.toJSONSchema`, JSON Schema 2020-12, the dialect of OpenAPI 3.1),
// so the document cannot drift from the code. scripts/openapi.ts writes it to docs/openapi.json and
// a test compares that file with a fresh build. Served at GET /api/openapi.json.
import fs from 'node:fs';
import { z } from 'zod';
import type { Operation } from '../operations/registry.ts';
import { operationPath } from '../operations/registry.ts';
import { limitMessage, PLAN_QUOTAS, type QuotaKind } from '../tenancy/quotas.ts';
import { BRAND_NOT_FOUND } from '../tenancy/brands.ts';
import {
  rawEndpoints as declaredRawEndpoints,
  type RawEndpoint,
  type OwnRateLimit,
  type RawMethodDoc,
} from '../operations/raw-endpoints.ts';
import { type Config, loadConfig } from '../config.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema and OpenAPI objects, plain JSON navigated by keyword
type Schema = Record<string, any>;

const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
  description: string;
};

/** The wire side of a schema: what a client sends, what the server writes (`run` returns z.input<R>). */
function jsonSchema(schema: z.ZodType): Schema {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Schema;
  delete json.$schema;
  return tidy(json) as Schema;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** Drops zod's ±2^53 integer bounds: they say nothing a reader needs. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' && v === -SAFE) || (k === 'maximum' && v === SAFE)) continue;
    out[k] = tidy(v);
  }
  return out;
}

const UUID_EXAMPLE = '4f1c2a9e-8b3d-4e6f-9a01-2b3c4d5e6f70';

/**
 * An example for a parameter that its schema does not carry one for: a UUID for UUID-shaped
 * strings, a day for date bounds, the first value of an enum. Integrators see a filled-in request.
 */
function exampleFor(name: string, schema: Schema): unknown {
  if (schema.examples?.length) return undefined;
  if (schema.enum?.length) return schema.enum[0];
  if (typeof schema.pattern === 'string' && schema.pattern.includes('[0-9a-f]{8}')) return UUID_EXAMPLE;
  if (name === 'id' || name.endsWith('_id')) return UUID_EXAMPLE;
  if (name === 'date_from') return '2026-01-01';
  if (name === 'date_to') return '2026-01-31';
  if (name === 'model') return 'gpt-4o,sonar';
  if (name === 'region') return 'US';
  if (name === 'limit') return 50;
  return undefined;
}

/** What each error status means, and the message it is shown with when the operation declares none. */
const ERRORS: Record<number, { description: string; example?: string }> = {
  400: { description: 'Invalid input; the message names the parameter', example: 'brand_id must be a UUID' },
  401: { description: 'Missing, malformed, unknown or revoked API key', example: 'Invalid API key' },
  402: { description: 'A plan limit is reached; the message names the limit' },
  404: { description: "Not found in the caller's organization" },
  409: { description: 'The object already exists (its natural key is taken); the message names it' },
  429: {
    description: 'Too many requests from this address; `Retry-After` says when to retry',
    example: 'Too many requests: the limit is 250 per 900 seconds; retry in 42 seconds',
  },
  500: {
    description: 'Internal error, or a store is unavailable (the message says which)',
    example: 'Analytics store unavailable',
  },
};

/** What `ctx.brand` answers for a brand outside the caller's organization (src/tenancy/brands.ts). */

/** `Brand not found` -> `brand-not-found`: the key of an example among several. */
const slug = (message: string) =>
  message
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function errorResponse(status: number, messages: string[]): Schema {
  const body = (error: string) => ({ error });
  const examples =
    messages.length === 1
      ? { example: body(messages[0]) }
      : { examples: Object.fromEntries(messages.map((m) => [slug(m), { summary: m, value: body(m) }])) };
  return {
    description: ERRORS[status].description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, ...examples } },
  };
}

/** The 402 message of a quota, as a growth-plan organization reads it. */
const quotaMessage = (kind: QuotaKind) =>
  limitMessage(kind, { limit: PLAN_QUOTAS.growth[kind], plan: 'growth', overridden: false });

/** `whoami` -> `whoami`, `visibility-summary` -> `visibilitySummary`. */
const camel = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
/** The component name of an operation's result: `visibility-summary` -> `VisibilitySummaryResult`. */
const resultName = (op: Operation) => `${camel(`-${op.name}`)}Result`;

/**
 * The operation's error statuses, each with the messages it is documented with, from what the
 * operation declares: any params can be invalid (400), a `brand_id` is resolved in the caller's
 * organization (404 `Brand not found`), a `quota` can run out (402), and its own `errors`.
 */
function errorMessages(op: Operation, params: Schema): Map<number, string[]> {
  const statuses = new Map<number, string[]>();
  const add = (status: number, message: string) => statuses.set(status, [...(statuses.get(status) ?? []), message]);
  for (const status of [401, 429, 500]) add(status, ERRORS[status].example!);
  if (Object.keys(params.properties ?? {}).length) add(400, ERRORS[400].example!);
  if (params.properties?.brand_id) add(404, BRAND_NOT_FOUND);
  if (op.quota) add(402, quotaMessage(op.quota));
  for (const e of op.errors ?? []) add(e.status, e.message);
  if (/:\w+/.test(operationPath(op)) && !statuses.has(404)) {
    throw new Error(`OpenAPI: operation ${op.name} takes a path id but declares no 404`);
  }
  return new Map([...statuses].sort(([a], [b]) => a - b));
}

/** One OpenAPI parameter from its JSON Schema: the description beside the schema, with an example. */
function parameter(name: string, schema: Schema, where: 'path' | 'query', required: boolean): Schema {
  const { description, ...rest } = schema;
  const example = exampleFor(name, schema);
  return {
    name,
    in: where,
    required,
    ...(description === undefined ? {} : { description }),
    schema: rest,
    ...(example === undefined ? {} : { example }),
  };
}

function operationObject(
  op: Operation,
  surface: 'REST API' | 'Metrics API',
): { path: string; method: string; object: Schema } {
  const path = operationPath(op);
  const pathParam = /:(\w+)/.exec(path)?.[1];
  const params = jsonSchema(op.params);
  const properties: Record<string, Schema> = params.properties ?? {};
  const required = new Set<string>(params.required ?? []);
  const inBody = op.method === 'POST' || op.method === 'PATCH';

  const parameters: Schema[] = [];
  const body: Schema = { type: 'object', properties: {} as Schema, required: [] as string[] };
  for (const [name, schema] of Object.entries(properties)) {
    if (name === pathParam) {
      parameters.push(parameter(name, schema, 'path', true));
    } else if (inBody) {
      body.properties[name] = schema;
      if (required.has(name)) body.required.push(name);
    } else {
      parameters.push(parameter(name, schema, 'query', required.has(name)));
    }
  }
  if (!body.required.length) delete body.required;

  const prefix = surface === 'Metrics API' ? '/api/v1' : '/api/mcp';
  const object: Schema = {
    operationId: surface === 'Metrics API' ? `metrics${camel(`-${op.name}`)}` : camel(op.name),
    summary: op.name,
    description: op.description,
    tags: [surface],
    parameters,
    ...(inBody && Object.keys(body.properties).length
      ? { requestBody: { required: Boolean(body.required), content: { 'application/json': { schema: body } } } }
      : {}),
    responses: {
      // A component, shared by the REST and Metrics twins, and named in the reference page.
      200: {
        description: 'Success',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${resultName(op)}` } } },
      },
      ...Object.fromEntries([...errorMessages(op, params)].map(([s, messages]) => [s, errorResponse(s, messages)])),
    },
    ...(op.tool ? { 'x-mcp-tool': op.tool } : {}),
  };
  return { path: `${prefix}${path.replace(/:(\w+)/g, '{$1}')}`, method: op.method.toLowerCase(), object };
}

/** The variables that set each own rate limit (src/config.ts); the document states their defaults. */
const RATE_LIMIT_ENV: Record<OwnRateLimit, string> = {
  collectRateLimit: 'COLLECT_RATE_LIMIT',
  crawlerLogsRateLimit: 'CRAWLER_LOGS_RATE_LIMIT',
};

/** An error response with one example per message. */
function messagesResponse(description: string, messages: string[]): Schema {
  return {
    description,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        ...(messages.length === 1
          ? { example: { error: messages[0] } }
          : { examples: Object.fromEntries(messages.map((m) => [slug(m), { summary: m, value: { error: m } }])) }),
      },
    },
  };
}

/** The responses a limited method of a raw endpoint adds: its body cap and its own rate limit. */
function limitResponses(e: RawEndpoint, doc: RawMethodDoc, defaults: Config): Schema {
  const responses: Schema = { ...doc.responses };
  if (!doc.limited) return responses;
  if (e.body) {
    const { maxBytes, tooLargeStatus, tooLargeMessage } = e.body;
    const existing = responses[tooLargeStatus];
    const example = existing?.content?.['application/json']?.example?.error as string | undefined;
    responses[tooLargeStatus] = messagesResponse(
      `${existing ? `${existing.description}; ` : ''}a body over ${maxBytes} bytes is refused`,
      [...(example ? [example] : []), tooLargeMessage],
    );
  }
  if (e.rateLimit) {
    const { max, windowS } = defaults[e.rateLimit];
    responses[429] = messagesResponse(
      "Too many requests from this address under the endpoint's own limit; `Retry-After` says when to retry",
      [`Too many requests: the limit is ${max} per ${windowS} seconds; retry in 42 seconds`],
    );
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** A raw endpoint's entries, one per method it answers, with its own limits stated. */
/** A raw endpoint's query schema as OpenAPI query parameters, described as an operation's are. */
function queryParameters(query: z.ZodType): Schema[] {
  const params = jsonSchema(query);
  const required = new Set<string>(params.required ?? []);
  return Object.entries<Schema>(params.properties ?? {}).map(([name, schema]) =>
    parameter(name, schema, 'query', required.has(name)),
  );
}

function rawEndpointObjects(e: RawEndpoint, defaults: Config): [string, Schema][] {
  const documented = Object.keys(e.openapi);
  if (e.methods.length !== documented.length || e.methods.some((m) => !e.openapi[m])) {
    throw new Error(
      `OpenAPI: raw endpoint ${e.path} answers ${e.methods.join(', ')} but documents ${documented.join(', ')}`,
    );
  }
  let limits = e.key ? "Rate limit: the API's." : 'No rate limit.';
  if (e.rateLimit) {
    const { max, windowS } = defaults[e.rateLimit];
    const env = RATE_LIMIT_ENV[e.rateLimit];
    limits =
      `Rate limit: its own, ${max} requests per ${windowS} seconds per client address by default ` +
      `(\`${env}_MAX\`, \`${env}_WINDOW_S\`), in place of the API's.`;
  }
  const bodyLimit = e.body ? ` Body: at most ${e.body.maxBytes} bytes.` : '';
  return e.methods.map((method, i) => {
    const doc = e.openapi[method]!;
    return [
      method.toLowerCase(),
      {
        operationId: camel(e.name) + (i === 0 ? '' : camel(`-${method.toLowerCase()}`)),
        summary: doc.summary,
        description: `${e.description} ${limits}${bodyLimit}`,
        tags: ['Raw endpoints'],
        ...(e.key ? {} : { security: [] }),
        parameters: [...(doc.parameters ?? []), ...(doc.query ? queryParameters(doc.query) : [])],
        ...(doc.body
          ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(doc.body) } } } }
          : doc.requestBody
            ? { requestBody: doc.requestBody }
            : {}),
        responses: limitResponses(e, doc, defaults),
        'x-raw-endpoint': true,
      },
    ];
  });
}

export function buildOpenApi(
  operations: readonly Operation[],
  rawEndpoints: readonly RawEndpoint[] = declaredRawEndpoints,
): Schema {
  const paths: Record<string, Schema> = {};
  const results: Record<string, Schema> = {};
  for (const op of operations) {
    if (results[resultName(op)]) throw new Error(`OpenAPI: operation ${op.name} is declared twice`);
    results[resultName(op)] = jsonSchema(op.result);
    for (const surface of op.metrics ? (['REST API', 'Metrics API'] as const) : (['REST API'] as const)) {
      const { path, method, object } = operationObject(op, surface);
      paths[path] ??= {};
      if (paths[path][method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is declared twice`);
      paths[path][method] = object;
    }
  }
  // Defaults only (no environment): the committed document is the same on every machine.
  const defaults = loadConfig({});
  for (const e of rawEndpoints) {
    paths[e.path] ??= {};
    for (const [method, object] of rawEndpointObjects(e, defaults)) {
      if (paths[e.path][method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${e.path} is declared twice`);
      paths[e.path][method] = object;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Answerscope API',
      version: pkg.version,
      description:
        `${pkg.description}\n\nEvery request carries \`Authorization: Bearer ans_...\`. ` +
        'Errors are `{"error": "<message>"}`. Each client address may make a limited number of requests per window ' +
        '(250 per 15 minutes by default); `RateLimit-Remaining` tells how many are left. ' +
        'The MCP server at `/api/mcp` exposes the operations marked `x-mcp-tool` as tools with the same parameters.',
    },
    tags: [
      { name: 'REST API', description: 'Every operation, under `/api/mcp/*`.' },
      {
        name: 'Metrics API',
        description:
          'The read-only subset for reporting tools, under `/api/v1/*`; ' +
          'each returns exactly what its REST twin returns.',
      },
      {
        name: 'Raw endpoints',
        description:
          'Endpoints outside the operation model (src/operations/raw-endpoints.ts): the tracking script, ' +
          'its beacon and the crawler-log batch, each with its own limits.',
      },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (`ans_...`), created with `answerscope keys create`.',
        },
      },
      schemas: {
        ...results,
        Error: {
          type: 'object',
          properties: {
            error: { type: 'string', description: 'What went wrong; validation errors name the parameter' },
          },
          required: ['error'],
        },
      },
    },
  };
}

/** The document as written to docs/openapi.json: stable key order, two-space indent, final newline. */
export const openApiText = (operations: readonly Operation[]) =>
  `${JSON.stringify(buildOpenApi(operations), null, 2)}\n`;
