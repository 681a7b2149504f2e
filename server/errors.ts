/** An error that becomes a JSON response with its status; anything else becomes an opaque 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new HttpError(400, 'invalid_request', message, details);
export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);
