// `npm run demo`: the service on the embedded stores with a demo tenant, ready to query.
// It applies examples/demo-workspace.json, ingests 90 days of SIMULATED answers for its brands
// (the simulated engine, labelled as such), creates an API key and a password for the demo user,
// starts the server and prints the app's address, the email and password to sign in with, and the
// key with commands to try. Running it again replaces, never duplicates.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';
import { applyWorkspace, parseWorkspace } from './tenancy/workspace.ts';
import { createKey } from './tenancy/keys.ts';
import { setPasswordByEmail } from './tenancy/accounts.ts';
import { readJsonFile } from './cli/commands.ts';
import { ingestLines } from './tracking/ingest/file.ts';
import { type SimBrand, simulateDays, SIMULATED_LABEL } from './tracking/capture/simulated/answers.ts';
import { DEMO_RISE, demoRise } from './tracking/capture/simulated/demo-story.ts';
import { loadSimBrands } from './tracking/capture/simulated/brands.ts';
import { DAY_MS, isoDay } from './instant.ts';

const DEMO_DAYS = 90;

async function* simulatedLines(brands: SimBrand[], from: string) {
  let line = 0;
  const rise = demoRise(brands, from, DEMO_DAYS);
  for (const answer of simulateDays({ seed: 'demo', brands, from, days: DEMO_DAYS, rise })) {
    yield { line: ++line, text: JSON.stringify(answer) };
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  // Quiet by default: the demo's own output is what a newcomer reads.
  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  const server = await startServer(config, { firstRunLink: false });
  const workspace = parseWorkspace(readJsonFile(path.join(ROOT, 'examples/demo-workspace.json')));
  const applied = await applyWorkspace(server.stores.pg, workspace);
  const email = workspace.organizations[0].members[0].email;
  const { key } = await createKey(server.stores.pg, { email, name: 'demo' });
  // A new password at every start: nothing guessable stands on a demo reachable on the network.
  const password = randomBytes(12).toString('base64url');
  await setPasswordByEmail(server.stores.pg, email, password);
  const brand = applied.organizations[0].brands[0];

  // The 90 days before today (UTC), so the figures end yesterday.
  const from = isoDay(Date.now() - DEMO_DAYS * DAY_MS);
  const sims = await loadSimBrands(
    server.stores.pg,
    applied.organizations[0].brands.map((b) => b.id),
  );
  const ingested = await ingestLines(server.stores, simulatedLines(sims, from));

  const base = server.url;
  const org = applied.organizations[0];
  process.stdout.write(
    `
Answerscope demo listening on ${base}

Open the app: ${base}/app
  Email:    ${email}
  Password: ${password}

Demo organization: ${org.name}; brands: ${org.brands.map((b) => b.name).join(', ')}
Data: ${ingested.inserted + ingested.replaced} ${SIMULATED_LABEL} answers (${SIMULATED_LABEL} engine, ` +
      `not real AI platforms) from ${from}, ${DEMO_DAYS} days
Story (${SIMULATED_LABEL}): ${DEMO_RISE.competitor} named more often on ${DEMO_RISE.platform}, ` +
      `last ${DEMO_RISE.days} days
API key (shown once): ${key}

Try:
  curl -H "Authorization: Bearer ${key}" ${base}/api/v1/whoami
  curl -H "Authorization: Bearer ${key}" ${base}/api/v1/brands
  curl -H "Authorization: Bearer ${key}" "${base}/api/v1/visibility-summary?brand_id=${brand.id}"

Stop with Ctrl-C.
`,
  );
  const stop = () =>
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`Demo failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
