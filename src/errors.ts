// Errors that reach a client as {"error": message} with a status of docs/api.md section 28 (Errors).
// Anything else thrown is a 500 whose cause is logged, never sent.

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503,
    message: string,
    /** The form field the problem is about, where a form is answered (the app puts the message beside it). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message: string) => new ApiError(404, message);

/**
 * The first validation problem of a zod parse, as a message that names the parameter: every
 * surface and the tracking beacon answer bad input the same way (a 400 naming what was wrong).
 */
export function validationMessage(issues: { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  const name = issue.path.map(String).join('.');
  // Our schemas phrase their messages with the parameter's name; zod's defaults do not.
  return !name || issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
}

/** The client closed the connection before its answer: the work for it stops where it can. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection');
    this.name = 'ClientGone';
  }
}

/** A command-line or admin failure: a one-line reason, no stack. */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}
