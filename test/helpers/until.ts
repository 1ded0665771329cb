// Waiting for the service to get somewhere that takes it a while (a capture, a checklist step).

/** Reads every 100 ms until `done` holds for what was read, and gives that; ava's timeout bounds the wait. */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}
