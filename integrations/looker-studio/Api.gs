// Calls to the Answerscope Metrics API (/api/v1/*). The API key lives in the user's properties and
// travels only in the Authorization header, never in a URL (URLs end up in logs and caches).
// Responses are cached per user for a few minutes: Looker Studio asks again for every chart of a
// page, and the API allows 250 requests per 15 minutes from one address.
// Apps Script loads every .gs file of the project into one global scope and Looker Studio calls
// the connector's functions by name, so a function unused in its own file is still used. The
// files keep to ES5 syntax and built-ins, which every Apps Script runtime runs.
// biome-ignore-all lint/correctness/noUnusedVariables: used from the other .gs files (see above)
// biome-ignore-all lint/complexity/useArrowFunction: ES5 on purpose (see above)
// biome-ignore-all lint/style/useTemplate: ES5 on purpose (see above)

var KEY_PROPERTY = 'answerscope.apiKey';
var CACHE_SECONDS = 300;
// CacheService refuses values over 100 KB; bigger responses are simply not cached.
var CACHE_MAX_CHARS = 90000;

/** An error whose message is meant for the Looker Studio user (turned into newUserError()). */
function ConnectorError(message, debugText) {
  this.name = 'ConnectorError';
  this.message = message;
  this.debugText = debugText || message;
}
ConnectorError.prototype = Object.create(Error.prototype);
ConnectorError.prototype.constructor = ConnectorError;

function storedKey() {
  return PropertiesService.getUserProperties().getProperty(KEY_PROPERTY);
}

/** https://host[:port][/path] without a trailing slash, query or fragment; null if it is not one. */
function normaliseBaseUrl(value) {
  var text = String(value || '')
    .trim()
    .replace(/\/+$/, '');
  return /^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i.test(text) ? text : null;
}

function queryString(params) {
  var parts = [];
  Object.keys(params).forEach(function (name) {
    var value = params[name];
    if (value !== undefined && value !== null && value !== '') {
      parts.push(encodeURIComponent(name) + '=' + encodeURIComponent(String(value)));
    }
  });
  return parts.length ? '?' + parts.join('&') : '';
}

function cacheKeyFor(apiKey, url) {
  // Keys are at most 250 characters; the digest also keeps one key's responses from another's.
  var digest = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, apiKey + '\n' + url, Utilities.Charset.UTF_8);
  return 'answerscope:' + Utilities.base64EncodeWebSafe(digest);
}

/** GET {baseUrl}/api/v1/{path}?{params} as JSON; an API error becomes a ConnectorError with its message. */
function apiGet(baseUrl, path, params) {
  var apiKey = storedKey();
  if (!apiKey) throw new ConnectorError('Enter your Answerscope API key (it starts with ans_) to use this connector.');
  var url = baseUrl + '/api/v1/' + path + queryString(params || {});
  var cache = CacheService.getUserCache();
  var cacheKey = cacheKeyFor(apiKey, url);
  var cached = cache.get(cacheKey);
  if (cached) return JSON.parse(cached);

  var response;
  try {
    response = UrlFetchApp.fetch(url, {
      method: 'get',
      headers: { Authorization: 'Bearer ' + apiKey, Accept: 'application/json' },
      muteHttpExceptions: true,
      // A redirect could carry the Authorization header to another host: refuse to follow one.
      followRedirects: false,
    });
  } catch (e) {
    throw new ConnectorError('Could not reach Answerscope at ' + baseUrl + ': ' + e.message);
  }
  var status = response.getResponseCode();
  var text = response.getContentText();
  var body = null;
  try {
    body = JSON.parse(text);
  } catch (e) {
    body = null;
  }
  var message;
  if (status !== 200) {
    message = body && typeof body.error === 'string' ? body.error : 'HTTP ' + status;
    if (status >= 300 && status < 400)
      message = 'the address redirects elsewhere (HTTP ' + status + '); enter the final address of the service';
    throw new ConnectorError(
      'Answerscope: ' + message,
      'GET /api/v1/' + path + ' answered ' + status + ': ' + text.slice(0, 500),
    );
  }
  if (body === null)
    throw new ConnectorError(
      'Answerscope answered ' + path + ' with something other than JSON: check the service address.',
    );
  if (text.length <= CACHE_MAX_CHARS) cache.put(cacheKey, text, CACHE_SECONDS);
  return body;
}
