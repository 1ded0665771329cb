// Runs the real `answerscope` command in a child process, as a user would.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/answerscope.js');

export interface CliResult {
  code: number;
  stdout: string;
  /** Standard output as bytes, for a command that writes a binary file (a Parquet export). */
  stdoutBytes: Buffer;
  stderr: string;
  json?: any;
}

/** `input`: written to the command's standard input (closed after it); none: no standard input. */
export function cli(args: string[], env: Record<string, string>, cwd?: string, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin?.end(input);
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdoutBytes = Buffer.concat(out);
      const stdout = stdoutBytes.toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        /* not JSON */
      }
      resolve({ code: code ?? -1, stdout, stdoutBytes, stderr, json });
    });
  });
}
