// `npm run demo`: the service on the embedded stores with a demo tenant, ready to query.
// It applies examples/demo-workspace.json, creates an API key for the demo user, starts the server
// and prints the key with commands to try.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';
import { applyWorkspace, parseWorkspace } from './tenancy/workspace.ts';
import { createKey } from './tenancy/keys.ts';
import { readJsonFile } from './cli/commands.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const config = loadConfig();
  const server = await startServer(config);
  const workspace = parseWorkspace(readJsonFile(path.join(ROOT, 'examples/demo-workspace.json')));
  const applied = await applyWorkspace(server.stores.pg, workspace);
  const email = workspace.organizations[0].members[0].email;
  const { key } = await createKey(server.stores.pg, { email, name: 'demo' });
  const brand = applied.organizations[0].brands[0];

  const base = server.url;
  process.stdout.write(`
Answerscope demo listening on ${base}
Demo organization: ${applied.organizations[0].name}; brands: ${applied.organizations[0].brands.map((b) => b.name).join(', ')}
API key (shown once): ${key}

Try:
  curl -H "Authorization: Bearer ${key}" ${base}/api/v1/whoami
  curl -H "Authorization: Bearer ${key}" ${base}/api/v1/brands
  curl -H "Authorization: Bearer ${key}" "${base}/api/mcp/prompts?brand_id=${brand.id}"

Stop with Ctrl-C.
`);
  const stop = () => server.close().then(() => process.exit(0), () => process.exit(1));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`Demo failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
