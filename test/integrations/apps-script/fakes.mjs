// A small fake of the Apps Script services the Looker Studio connector uses: UrlFetchApp (over a
// synchronous fetch function given by the caller), PropertiesService, CacheService, Utilities and
// DataStudioApp's community connector builders. It follows the documented signatures and limits
// (cache keys of 250 characters, values of 100 KB, known fetch options) and refuses anything else,
// so a mistake that real Apps Script would reject fails here too. Plain JavaScript: it runs inside
// a worker thread, where the TypeScript loader is not registered.
import { createHash } from 'node:crypto';

/** The exception UserError.throwException() throws; the worker reports it as a user error. */
export class FakeUserError extends Error {
  constructor(text, debugText) {
    super(text);
    this.name = 'UserError';
    this.userError = true;
    this.text = text;
    this.debugText = debugText;
  }
}

const FETCH_OPTIONS = new Set([
  'method',
  'headers',
  'contentType',
  'payload',
  'muteHttpExceptions',
  'followRedirects',
  'validateHttpsCertificates',
  'escaping',
]);

function urlFetchApp(syncFetch, log) {
  return {
    fetch(url, params = {}) {
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error(`Exception: Invalid argument: ${url}`);
      for (const name of Object.keys(params))
        if (!FETCH_OPTIONS.has(name)) throw new Error(`Exception: unknown UrlFetchApp option ${name}`);
      const request = {
        url,
        method: String(params.method ?? 'get').toUpperCase(),
        headers: { ...(params.headers ?? {}) },
        payload: params.payload,
        followRedirects: params.followRedirects !== false,
      };
      log.requests.push({ url: request.url, method: request.method, headers: request.headers });
      const reply = syncFetch(request);
      if (reply.error) throw new Error(`Exception: Address unavailable: ${url} (${reply.error})`);
      if (reply.status >= 400 && !params.muteHttpExceptions) {
        throw new Error(
          `Exception: Request failed for ${new URL(url).host} returned code ${reply.status}. Truncated server response: ${reply.body.slice(0, 100)}`,
        );
      }
      return {
        getResponseCode: () => reply.status,
        getContentText: () => reply.body,
        getHeaders: () => ({ ...reply.headers }),
        getAllHeaders: () => ({ ...reply.headers }),
      };
    },
  };
}

function properties() {
  const map = new Map();
  const store = {
    getProperty: (key) => (map.has(key) ? map.get(key) : null),
    setProperty: (key, value) => {
      map.set(String(key), String(value));
      return store;
    },
    deleteProperty: (key) => {
      map.delete(key);
      return store;
    },
    getProperties: () => Object.fromEntries(map),
    getKeys: () => [...map.keys()],
    deleteAllProperties: () => {
      map.clear();
      return store;
    },
  };
  return store;
}

function cache(now) {
  const map = new Map();
  const live = (key) => {
    const hit = map.get(key);
    if (hit && hit.expires > now()) return hit.value;
    map.delete(key);
    return null;
  };
  return {
    get(key) {
      if (String(key).length > 250) throw new Error('Exception: Argument too large: key');
      return live(key);
    },
    put(key, value, seconds = 600) {
      if (String(key).length > 250) throw new Error('Exception: Argument too large: key');
      if (String(value).length > 100 * 1024) throw new Error('Exception: Argument too large: value');
      if (seconds > 21600) throw new Error('Exception: expiration over 6 hours');
      map.set(key, { value: String(value), expires: now() + seconds * 1000 });
    },
    remove(key) {
      map.delete(key);
    },
    keys: () => [...map.keys()],
  };
}

const utilities = {
  DigestAlgorithm: { MD5: 'md5', SHA_1: 'sha1', SHA_256: 'sha256', SHA_384: 'sha384', SHA_512: 'sha512' },
  Charset: { UTF_8: 'utf8', US_ASCII: 'ascii' },
  /** Apps Script returns Java-style signed bytes. */
  computeDigest(algorithm, value, charset = 'utf8') {
    return [
      ...createHash(algorithm)
        .update(Buffer.from(String(value), charset))
        .digest(),
    ].map((b) => (b > 127 ? b - 256 : b));
  },
  base64Encode: (data) =>
    Buffer.from(typeof data === 'string' ? Buffer.from(data) : data.map((b) => b & 255)).toString('base64'),
  base64EncodeWebSafe: (data) =>
    Buffer.from(typeof data === 'string' ? Buffer.from(data) : data.map((b) => b & 255))
      .toString('base64')
      .replace(/\+/g, '-')
      .replace(/\//g, '_'),
};

// ---- DataStudioApp --------------------------------------------------------------------------

const FIELD_TYPES = [
  'YEAR',
  'YEAR_QUARTER',
  'YEAR_MONTH',
  'YEAR_WEEK',
  'YEAR_MONTH_DAY',
  'YEAR_MONTH_DAY_HOUR',
  'YEAR_MONTH_DAY_SECOND',
  'QUARTER',
  'MONTH',
  'WEEK',
  'MONTH_DAY',
  'DAY_OF_WEEK',
  'DAY',
  'HOUR',
  'MINUTE',
  'DURATION',
  'COUNTRY',
  'COUNTRY_CODE',
  'CONTINENT',
  'CONTINENT_CODE',
  'SUB_CONTINENT',
  'SUB_CONTINENT_CODE',
  'REGION',
  'REGION_CODE',
  'CITY',
  'CITY_CODE',
  'METRO',
  'METRO_CODE',
  'LATITUDE_LONGITUDE',
  'NUMBER',
  'PERCENT',
  'TEXT',
  'BOOLEAN',
  'URL',
  'HYPERLINK',
  'IMAGE',
  'IMAGE_LINK',
  'CURRENCY_USD',
  'CURRENCY_EUR',
];
const AGGREGATIONS = ['AVG', 'COUNT', 'COUNT_DISTINCT', 'MAX', 'MIN', 'SUM', 'AUTO', 'NO_AGGREGATION'];
const AUTH_TYPES = ['NONE', 'OAUTH2', 'USER_PASS', 'KEY', 'USER_TOKEN', 'PATH_USER_PASS', 'PATH_KEY'];
const enumOf = (names) => Object.freeze(Object.fromEntries(names.map((n) => [n, n])));
const FieldType = enumOf(FIELD_TYPES);
const AggregationType = enumOf(AGGREGATIONS);
const AuthType = enumOf(AUTH_TYPES);

const dataType = (type) =>
  type === 'NUMBER' || type === 'PERCENT' || type.startsWith('CURRENCY_') || type === 'DURATION'
    ? 'NUMBER'
    : type === 'BOOLEAN'
      ? 'BOOLEAN'
      : 'STRING';

function newField(conceptType) {
  const f = { conceptType };
  const field = {
    setId: (id) => {
      f.id = id;
      return field;
    },
    setName: (name) => {
      f.name = name;
      return field;
    },
    setDescription: (d) => {
      f.description = d;
      return field;
    },
    setType: (type) => {
      if (!FIELD_TYPES.includes(type)) throw new Error(`unknown FieldType ${type}`);
      f.type = type;
      return field;
    },
    setAggregation: (a) => {
      if (!AGGREGATIONS.includes(a)) throw new Error(`unknown AggregationType ${a}`);
      if (conceptType !== 'METRIC') throw new Error('an aggregation is set on metrics only');
      f.aggregation = a;
      return field;
    },
    setIsHidden: (h) => {
      f.isHidden = !!h;
      return field;
    },
    getId: () => f.id,
    getName: () => f.name,
    getType: () => f.type,
    getAggregation: () => f.aggregation,
    isDimension: () => conceptType === 'DIMENSION',
    isMetric: () => conceptType === 'METRIC',
    build() {
      if (!f.id || !f.type) throw new Error(`a field needs an id and a type (${JSON.stringify(f)})`);
      return {
        name: f.id,
        label: f.name ?? f.id,
        ...(f.description ? { description: f.description } : {}),
        dataType: dataType(f.type),
        semantics: { conceptType, semanticType: f.type },
        ...(f.aggregation ? { defaultAggregationType: f.aggregation } : {}),
        ...(f.isHidden ? { isHidden: true } : {}),
      };
    },
  };
  return field;
}

function newFields(list = []) {
  const fields = {
    newDimension: () => {
      const f = newField('DIMENSION');
      list.push(f);
      return f;
    },
    newMetric: () => {
      const f = newField('METRIC');
      list.push(f);
      return f;
    },
    getFieldById: (id) => list.find((f) => f.getId() === id) ?? null,
    asArray: () => [...list],
    // Unknown ids are an error: Looker Studio only asks for fields of the schema.
    forIds: (ids) =>
      newFields(
        ids.map((id) => {
          const f = fields.getFieldById(id);
          if (!f) throw new Error(`Exception: no field with id ${id}`);
          return f;
        }),
      ),
    build() {
      const built = list.map((f) => f.build());
      const ids = built.map((f) => f.name);
      if (new Set(ids).size !== ids.length) throw new Error(`duplicate field ids: ${ids}`);
      return built;
    },
  };
  return fields;
}

function newConfig() {
  const entries = [];
  let dateRangeRequired = false;
  let isSteppedConfig = false;
  const entry = (type) => {
    const e = { type };
    const options = [];
    const builder = {
      setId: (id) => {
        e.name = id;
        return builder;
      },
      setName: (name) => {
        e.displayName = name;
        return builder;
      },
      setHelpText: (t) => {
        e.helpText = t;
        return builder;
      },
      setPlaceholder: (t) => {
        e.placeholder = t;
        return builder;
      },
      setText: (t) => {
        e.text = t;
        return builder;
      },
      setAllowOverride: (b) => {
        e.parameterControl = { allowOverride: !!b };
        return builder;
      },
      setIsDynamic: (b) => {
        e.isDynamic = !!b;
        return builder;
      },
      addOption: (o) => {
        options.push(o.build());
        return builder;
      },
      build: () => ({ ...e, ...(options.length ? { options } : {}) }),
    };
    entries.push(builder);
    return builder;
  };
  const config = {
    newTextInput: () => entry('TEXTINPUT'),
    newTextArea: () => entry('TEXTAREA'),
    newSelectSingle: () => entry('SELECT_SINGLE'),
    newSelectMultiple: () => entry('SELECT_MULTIPLE'),
    newCheckbox: () => entry('CHECKBOX'),
    newInfo: () => entry('INFO'),
    newOptionBuilder() {
      const o = {};
      const option = {
        setLabel: (l) => {
          o.label = l;
          return option;
        },
        setValue: (v) => {
          o.value = v;
          return option;
        },
        build: () => ({ ...o }),
      };
      return option;
    },
    setDateRangeRequired: (b) => {
      dateRangeRequired = !!b;
      return config;
    },
    setIsSteppedConfig: (b) => {
      isSteppedConfig = !!b;
      return config;
    },
    build() {
      const configParams = entries.map((b) => b.build());
      for (const p of configParams) if (!p.name) throw new Error(`a config entry needs an id (${JSON.stringify(p)})`);
      const ids = configParams.map((p) => p.name);
      if (new Set(ids).size !== ids.length) throw new Error(`duplicate config ids: ${ids}`);
      for (const p of configParams) {
        if (p.type.startsWith('SELECT') && !p.options?.length) throw new Error(`select ${p.name} has no options`);
      }
      return { configParams, dateRangeRequired, isSteppedConfig };
    },
  };
  return config;
}

function communityConnector() {
  return {
    AuthType,
    FieldType,
    AggregationType,
    newAuthTypeResponse() {
      const r = {};
      const builder = {
        setAuthType: (t) => {
          if (!AUTH_TYPES.includes(t)) throw new Error(`unknown AuthType ${t}`);
          r.type = t;
          return builder;
        },
        setHelpUrl: (u) => {
          r.helpUrl = u;
          return builder;
        },
        build: () => {
          if (!r.type) throw new Error('an auth type is required');
          return { ...r };
        },
      };
      return builder;
    },
    getConfig: newConfig,
    getFields: () => newFields(),
    newUserError() {
      let text = '';
      let debugText;
      const error = {
        setText: (t) => {
          text = String(t);
          return error;
        },
        setDebugText: (t) => {
          debugText = String(t);
          return error;
        },
        throwException: () => {
          throw new FakeUserError(text, debugText);
        },
      };
      return error;
    },
  };
}

/** The services as globals of a script context, and what the fakes recorded. */
export function appsScriptGlobals({ fetch: syncFetch, now = () => Date.now() }) {
  const log = { requests: [] };
  const userProperties = properties();
  const scriptProperties = properties();
  const userCache = cache(now);
  const scriptCache = cache(now);
  const globals = {
    UrlFetchApp: urlFetchApp(syncFetch, log),
    PropertiesService: { getUserProperties: () => userProperties, getScriptProperties: () => scriptProperties },
    CacheService: { getUserCache: () => userCache, getScriptCache: () => scriptCache },
    Utilities: utilities,
    DataStudioApp: { createCommunityConnector: communityConnector },
    Logger: { log: () => {} },
  };
  return { globals, log, userProperties, userCache };
}
