// A module resolution hook for a shared test process (shared-process.ts): a test file that imports
// `ava` gets ava-for-file.mjs for its own path instead, which names its tests after the file.
// Registered with module.register(), so it runs on Node's loader thread; `files` holds the test
// files' URLs.
let files = new Set();

export function initialize(data) {
  files = new Set(data.files);
}

export async function resolve(specifier, context, next) {
  if (specifier === 'ava' && files.has(context.parentURL?.split('?')[0])) {
    const wrapper = new URL('./ava-for-file.mjs', import.meta.url);
    wrapper.searchParams.set('file', context.parentURL.split('?')[0]);
    return { url: wrapper.href, shortCircuit: true };
  }
  return next(specifier, context);
}
