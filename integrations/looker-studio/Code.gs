// Answerscope community connector for Looker Studio: the functions Looker Studio calls. Auth type
// KEY (an ans_ API key), a stepped configuration (service address, then brand and report from the
// user's own brands), a schema per report (Reports.gs) and rows fetched from the Metrics API for
// the date range of the report (Api.gs). Deployment: README.md beside this file.
// Apps Script loads every .gs file of the project into one global scope and Looker Studio calls
// the connector's functions by name, so a function unused in its own file is still used. The
// files keep to ES5 syntax and built-ins, which every Apps Script runtime runs.
// biome-ignore-all lint/correctness/noUnusedVariables: called by Looker Studio or from the other .gs files (see above)
// biome-ignore-all lint/complexity/useArrowFunction: ES5 on purpose (see above)
// biome-ignore-all lint/complexity/useOptionalChain: ES5 on purpose (see above)
// biome-ignore-all lint/style/useTemplate: ES5 on purpose (see above)

var cc = DataStudioApp.createCommunityConnector();

var UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs fn; a ConnectorError reaches the user as a Looker Studio user error with its message. */
function withUserErrors(fn) {
  var known;
  try {
    return fn();
  } catch (e) {
    known = e instanceof ConnectorError;
    cc.newUserError()
      .setText(known ? e.message : 'The Answerscope connector failed: ' + e)
      .setDebugText(known ? e.debugText : String(e && e.stack ? e.stack : e))
      .throwException();
  }
}

// ---- Authentication ------------------------------------------------------------------------

function getAuthType() {
  return cc
    .newAuthTypeResponse()
    .setAuthType(cc.AuthType.KEY)
    .setHelpUrl('https://answerscope.example/looker-studio#api-key')
    .build();
}

/** Keeps the key after checking its form; the API checks it on the first request. */
function setCredentials(request) {
  var key = String((request && request.key) || '').trim();
  if (!/^ans_\S+$/.test(key)) return { errorCode: 'INVALID_CREDENTIALS' };
  PropertiesService.getUserProperties().setProperty(KEY_PROPERTY, key);
  return { errorCode: 'NONE' };
}

function isAuthValid() {
  var key = storedKey();
  return typeof key === 'string' && /^ans_\S+$/.test(key);
}

function resetAuth() {
  PropertiesService.getUserProperties().deleteProperty(KEY_PROPERTY);
}

function isAdminUser() {
  return false;
}

// ---- Configuration -------------------------------------------------------------------------

/** Step 1 asks for the service address; step 2 lists the user's brands (GET /api/v1/brands) and the reports. */
function getConfig(request) {
  return withUserErrors(function () {
    var params = (request && request.configParams) || {};
    var config = cc.getConfig();
    config
      .newInfo()
      .setId('instructions')
      .setText(
        "Enter the address of your Answerscope service, then pick a brand and a report. Dates come from the report's date range control.",
      );
    config
      .newTextInput()
      .setId('base_url')
      .setName('Answerscope address')
      .setHelpText('The address you sign in to, e.g. https://answerscope.example')
      .setPlaceholder('https://answerscope.example')
      .setIsDynamic(true);
    config.setDateRangeRequired(true);
    if (!params.base_url) return config.setIsSteppedConfig(true).build();

    var baseUrl = normaliseBaseUrl(params.base_url);
    if (!baseUrl)
      throw new ConnectorError(
        'The Answerscope address must start with https:// (or http://) and hold no query, e.g. https://answerscope.example',
      );
    var brands = apiGet(baseUrl, 'brands', {});
    if (!brands.length) throw new ConnectorError('Your Answerscope organization has no brands yet.');
    var brand = config.newSelectSingle().setId('brand_id').setName('Brand');
    brands.forEach(function (b) {
      brand.addOption(config.newOptionBuilder().setLabel(b.name).setValue(b.id));
    });
    var report = config.newSelectSingle().setId('report').setName('Report');
    Object.keys(REPORTS).forEach(function (id) {
      report.addOption(config.newOptionBuilder().setLabel(REPORTS[id].label).setValue(id));
    });
    return config.setIsSteppedConfig(false).build();
  });
}

/** The configuration of a data source, checked: base URL, brand id and report. */
function readConfig(configParams) {
  var params = configParams || {};
  var baseUrl = normaliseBaseUrl(params.base_url);
  if (!baseUrl) throw new ConnectorError('Set the Answerscope address in the data source configuration.');
  if (!UUID_PATTERN.test(String(params.brand_id || '')))
    throw new ConnectorError('Pick a brand in the data source configuration.');
  // biome-ignore lint/suspicious/noPrototypeBuiltins: Object.hasOwn is ES2022 (see the top of the file)
  if (!Object.prototype.hasOwnProperty.call(REPORTS, params.report))
    throw new ConnectorError('Pick a report in the data source configuration.');
  return { baseUrl: baseUrl, brandId: params.brand_id, report: params.report };
}

// ---- Schema and data ------------------------------------------------------------------------

function reportFields(reportId) {
  var fields = cc.getFields();
  REPORTS[reportId].fields.forEach(function (f) {
    var field = f.kind === 'dimension' ? fields.newDimension() : fields.newMetric();
    field.setId(f.id).setName(f.name).setType(cc.FieldType[f.type]);
    if (f.description) field.setDescription(f.description);
    if (f.kind === 'metric') field.setAggregation(cc.AggregationType[f.aggregation]);
  });
  return fields;
}

function getSchema(request) {
  return withUserErrors(function () {
    return { schema: reportFields(readConfig(request.configParams).report).build() };
  });
}

/** Rows of the configured report for the requested fields, in the requested order. */
function getData(request) {
  return withUserErrors(function () {
    var config = readConfig(request.configParams);
    var fieldIds = (request.fields || []).map(function (f) {
      return f.name;
    });
    var requested = reportFields(config.report).forIds(fieldIds);
    // Looker Studio's sample request only detects types, which the schema already declares.
    if (request.scriptParams && request.scriptParams.sampleExtraction) return { schema: requested.build(), rows: [] };
    var range = request.dateRange || {};
    var rows = REPORTS[config.report].rows({
      baseUrl: config.baseUrl,
      brandId: config.brandId,
      dateFrom: range.startDate,
      dateTo: range.endDate,
      fieldIds: fieldIds,
    });
    return {
      schema: requested.build(),
      rows: rows.map(function (row) {
        return {
          values: fieldIds.map(function (id) {
            return row[id] === undefined ? null : row[id];
          }),
        };
      }),
    };
  });
}
