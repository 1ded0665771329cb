// The HTTP endpoints that the operation model does not fit, declared in one list that the router
// (src/http/raw.ts), the API guard (src/http/pipeline.ts) and the OpenAPI document
// (src/http/openapi.ts) all read: /t.js answers JavaScript, /api/collect answers CORS beacons from
// any site, the crawler-log batch takes a JSON array, which neither the REST body (merged with the query) nor MCP
// arguments carry, and the answers export answers a file (JSON Lines or Parquet), streamed. The
// traffic handlers stay in src/traffic/, the export's in src/http/answers-export.ts, keyed by `name`.
import { z } from 'zod';
import { Beacon, COLLECT_PATH, MAX_BODY_BYTES } from '../traffic/collect.ts';
import { ANSWER_FILE_FORMATS, ANSWER_FILE_TYPES } from '../analytics/answer-file.ts';
import { brandId, dateRange, optionalOneOf, SOURCE_INVALID, sourceFilter } from './params.ts';
import { CRAWLER_LOGS_PATH, MAX_BATCH_BYTES } from '../traffic/crawlers/route.ts';
import { MAX_BATCH_ENTRIES } from '../traffic/crawlers/batch.ts';

/** The configuration of a rate limit that stands in for the API's (src/config.ts). */
export type OwnRateLimit = 'collectRateLimit' | 'crawlerLogsRateLimit';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI objects, plain JSON
type OpenApiObject = Record<string, any>;

export interface RawEndpoint {
  /** The handler's key, the metrics label and the OpenAPI operationId. */
  name: 'tracking-script' | 'collect' | 'crawler-logs' | 'answers-export';
  /** Matched exactly as written. */
  path: string;
  /** The methods it answers; any other gets 405 with these in `Allow`. */
  methods: readonly RawMethod[];
  /** Whether it takes the API key (only meaningful under /api/). */
  key: boolean;
  /**
   * Its own per-address rate limit in place of the API's; null: none (outside /api/). A keyless
   * endpoint applies it itself (the beacon's counters stay in memory); a keyed one gets it from the guard.
   */
  rateLimit: OwnRateLimit | null;
  /** The largest body it reads, and the status it answers a larger one with. */
  body?: { maxBytes: number; tooLargeStatus: 400 | 413; tooLargeMessage: string };
  description: string;
  /**
   * Each method's OpenAPI parameters, request body and responses other than the limits, which the
   * generator adds to the methods marked `limited` from `rateLimit` and `body`. Every method of
   * `methods` has one (the generator refuses a gap).
   */
  openapi: Partial<Record<RawMethod, RawMethodDoc>>;
}

export type RawMethod = 'GET' | 'HEAD' | 'POST' | 'OPTIONS';

export interface RawMethodDoc {
  summary: string;
  parameters?: OpenApiObject[];
  /** Query parameters as the zod schema that parses them (converted like an operation's params). */
  query?: z.ZodObject;
  /** The JSON body, as the zod schema that parses it (converted like an operation's params)... */
  body?: z.ZodType;
  /** ...or as an OpenAPI request body, where no schema parses it whole. */
  requestBody?: OpenApiObject;
  responses: OpenApiObject;
  /** Subject to the endpoint's own rate limit and body cap. */
  limited?: boolean;
}

const NOT_MODIFIED = { description: 'Not modified (`If-None-Match` names the current `ETag`)' };

const error = (description: string, message: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { error: message } } },
});

export const ANSWERS_EXPORT_PATH = '/api/mcp/answers-export';

/** The export's query: the operations' own parameters (params.ts), so the same messages. */
export const AnswersExportParams = z.object({
  brand_id: brandId,
  ...dateRange,
  source: sourceFilter,
  format: optionalOneOf('format', ANSWER_FILE_FORMATS).describe('jsonl (default) or parquet'),
});

export const rawEndpoints: readonly RawEndpoint[] = [
  {
    name: 'tracking-script',
    path: '/t.js',
    methods: ['GET', 'HEAD'],
    key: false,
    rateLimit: null,
    description:
      'The tracking script a brand\'s site loads (`<script src=".../t.js" data-site="TRACKING_ID">`). ' +
      'It posts one beacon to `/api/collect` for a visit an AI platform sent. Served with a strong `ETag` and ' +
      '`Cache-Control: public, max-age=3600, stale-while-revalidate=86400`; a matching `If-None-Match` answers 304. ' +
      'No key.',
    openapi: {
      GET: {
        summary: 'tracking script',
        responses: {
          200: {
            description: 'The script',
            headers: { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } },
            content: { 'application/javascript': { schema: { type: 'string' } } },
          },
          304: NOT_MODIFIED,
        },
      },
      HEAD: {
        summary: 'tracking script headers',
        responses: {
          200: {
            description: 'The headers of GET, no body',
            headers: { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } },
          },
          304: NOT_MODIFIED,
        },
      },
    },
  },
  {
    name: 'collect',
    path: COLLECT_PATH,
    methods: ['POST', 'OPTIONS'],
    key: false,
    rateLimit: 'collectRateLimit',
    body: { maxBytes: MAX_BODY_BYTES, tooLargeStatus: 400, tooLargeMessage: `Body exceeds ${MAX_BODY_BYTES} bytes` },
    description:
      "The beacon of `/t.js`: one visit to a page of the brand's site. Public and CORS-open " +
      '(`Access-Control-Allow-Origin: *`): the tracking id names the ' +
      'brand, no key. The body is read whatever its content type (`sendBeacon` sends `text/plain`). ' +
      "Bots, visits not sent by an AI platform and pages off the brand's domains are accepted with 202 and dropped.",
    openapi: {
      POST: {
        summary: 'traffic beacon',
        limited: true,
        // Read whatever its content type; documented as the JSON it is.
        body: Beacon,
        responses: {
          202: { description: 'Accepted (recorded, or dropped when not an AI visit)' },
          400: error('Malformed body, invalid field or unknown tracking id; the message says which', 'Unknown site'),
        },
      },
      OPTIONS: {
        summary: 'traffic beacon CORS preflight',
        responses: {
          204: {
            description:
              'Any origin may post: `Access-Control-Allow-Methods: POST, OPTIONS`, `Content-Type` allowed, ' +
              'cached a day',
          },
        },
      },
    },
  },
  {
    name: 'crawler-logs',
    path: CRAWLER_LOGS_PATH,
    methods: ['POST'],
    key: true,
    rateLimit: 'crawlerLogsRateLimit',
    body: {
      maxBytes: MAX_BATCH_BYTES,
      tooLargeStatus: 413,
      tooLargeMessage: `Request body exceeds ${MAX_BATCH_BYTES} bytes`,
    },
    description:
      "A log forwarder's batch of the brand's server-log entries (docs/crawlers.md): AI crawler hits on pages of " +
      "the brand's domains are recorded, the other entries are counted as dropped. Takes the API key; the brand " +
      "must be the key's organization's.",
    openapi: {
      POST: {
        summary: 'crawler-log batch',
        limited: true,
        parameters: [
          {
            name: 'brand_id',
            in: 'query',
            required: true,
            schema: { type: 'string', format: 'uuid' },
            example: '4f1c2a9e-8b3d-4e6f-9a01-2b3c4d5e6f70',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'array',
                maxItems: MAX_BATCH_ENTRIES,
                description: 'Log entries, each a parsed access-log line (docs/crawlers.md lists the fields)',
                items: { type: 'object' },
              },
            },
          },
        },
        responses: {
          202: {
            description: 'Accepted',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { accepted: { type: 'integer' }, dropped: { type: 'integer' } },
                  required: ['accepted', 'dropped'],
                },
              },
            },
          },
          400: error('Invalid brand_id or batch; the message says which', 'brand_id must be a UUID'),
          401: error('Missing, malformed, unknown or revoked API key', 'Invalid API key'),
          404: error("Not found in the caller's organization", 'Brand not found'),
        },
      },
    },
  },
  {
    name: 'answers-export',
    path: ANSWERS_EXPORT_PATH,
    methods: ['GET'],
    key: true,
    rateLimit: null,
    description:
      'Every answer of the brand in range, newest first, as a file: JSON Lines (`format=jsonl`, default: one ' +
      'answer a line, as `list_answers` gives it) or Parquet (`format=parquet`: the columns of ' +
      'docs/warehouse.md). Streamed in constant memory however many answers. `source` as the figures take it ' +
      "(default: capture and import). Takes the API key; the brand must be the key's organization's.",
    openapi: {
      GET: {
        summary: 'answers export',
        query: AnswersExportParams,
        responses: {
          200: {
            description: 'The file, as an attachment',
            content: {
              [ANSWER_FILE_TYPES.jsonl]: { schema: { type: 'string' } },
              [ANSWER_FILE_TYPES.parquet]: { schema: { type: 'string', format: 'binary' } },
            },
          },
          400: error('Invalid parameter; the message names it', SOURCE_INVALID),
          401: error('Missing, malformed, unknown or revoked API key', 'Invalid API key'),
          404: error("Not found in the caller's organization", 'Brand not found'),
        },
      },
    },
  },
];
