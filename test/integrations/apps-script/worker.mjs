// Runs the connector's .gs files in a vm context with the fake Apps Script services, inside a worker
// thread. UrlFetchApp.fetch must be synchronous, as in Apps Script: it posts the request to the
// main thread (which serves the app and performs the real HTTP request) and blocks on
// Atomics.wait until the reply is posted back, then takes it with receiveMessageOnPort. Blocking
// here never blocks the server: it runs on the main thread.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { appsScriptGlobals } from './fakes.mjs';

const { dir, fetchPort, signal } = workerData;
const flag = new Int32Array(signal);

function syncFetch(request) {
  Atomics.store(flag, 0, 0);
  fetchPort.postMessage(request);
  // The main thread stores 1 and notifies after posting the reply; 30 s is a test's patience.
  if (Atomics.wait(flag, 0, 0, 30_000) === 'timed-out') return { error: 'no reply from the main thread' };
  return receiveMessageOnPort(fetchPort).message;
}

let clock = Date.now();
const fakes = appsScriptGlobals({ fetch: syncFetch, now: () => clock });
const context = vm.createContext({ ...fakes.globals, console });
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.gs'))
  .sort()) {
  vm.runInContext(fs.readFileSync(path.join(dir, file), 'utf8'), context, { filename: file });
}

function describe(err) {
  if (err?.userError) return { userError: { text: err.text, debugText: err.debugText } };
  return { error: { message: String(err?.message ?? err), stack: err?.stack } };
}

parentPort.on('message', ({ id, op, fn, args, name, value, seconds }) => {
  try {
    let result;
    if (op === 'call') {
      if (typeof context[fn] !== 'function') throw new Error(`the connector has no function ${fn}`);
      // Arguments cross into the context as JSON, as Looker Studio's requests do.
      result = JSON.parse(
        JSON.stringify(context[fn](...args.map((a) => vm.runInContext(`(${JSON.stringify(a)})`, context))) ?? null),
      );
    } else if (op === 'set') {
      context[name] = value;
    } else if (op === 'state') {
      result = {
        requests: fakes.log.requests,
        userProperties: fakes.userProperties.getProperties(),
        cacheKeys: fakes.userCache.keys(),
      };
    } else if (op === 'advance') {
      clock += seconds * 1000;
    }
    parentPort.postMessage({ id, result });
  } catch (err) {
    parentPort.postMessage({ id, ...describe(err) });
  }
});
