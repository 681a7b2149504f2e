import { type Dispatcher, request } from 'undici';

export interface HttpGetOptions {
  dispatcher: Dispatcher;
  signal: AbortSignal;
  maxBytes: number;
  headers?: Record<string, string>;
  /** Told the response headers; true drops the body unread (the answer then has an empty body). */
  skipBody?: (headers: Record<string, string>) => boolean;
}

export interface HttpText {
  status: number;
  headers: Record<string, string>;
  text: string;
  truncated: boolean;
}

/** Read at most `maxBytes` of a body, then stop the transfer: a hostile or broken server cannot fill memory. */
export async function readCapped(body: AsyncIterable<Uint8Array> & { destroy?: () => void }, maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const room = maxBytes - size;
    if (chunk.byteLength > room) {
      chunks.push(Buffer.from(chunk.subarray(0, room)));
      size += room;
      truncated = true;
      break;
    }
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
  }
  if (truncated) body.destroy?.();
  return { bytes: Buffer.concat(chunks, size), truncated };
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Reject as soon as the signal fires. undici cannot hand a signal to a custom connector, so a connect that hangs
 * would otherwise hold the caller until the connect timeout.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** GET without following redirects (every hop must be decided by the caller). */
export async function httpGet(url: string | URL, options: HttpGetOptions): Promise<HttpText & { bytes: Buffer }> {
  const pending = request(url, {
    method: 'GET',
    dispatcher: options.dispatcher,
    signal: options.signal,
    headers: { 'user-agent': 'preflight-scanner/0.1', accept: '*/*', ...options.headers },
  });
  // The request itself still sees the signal and is dropped by undici; this only stops waiting for it.
  pending.catch(() => {});
  const response = await untilAborted(pending, options.signal);
  const headers = flattenHeaders(response.headers);
  if (options.skipBody?.(headers)) {
    response.body.destroy();
    return { status: response.statusCode, headers, text: '', bytes: Buffer.alloc(0), truncated: false };
  }
  const { bytes, truncated } = await readCapped(response.body, options.maxBytes);
  return {
    status: response.statusCode,
    headers,
    text: bytes.toString('utf8'),
    bytes,
    truncated,
  };
}

export class BadResponseError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** GET JSON; 404 is returned as `undefined` (the source does not know the name), other non-2xx throw. */
export async function httpGetJson(url: string | URL, options: HttpGetOptions): Promise<unknown | undefined> {
  const response = await httpGet(url, { ...options, headers: { accept: 'application/json', ...options.headers } });
  if (response.status === 404) return undefined;
  if (response.status < 200 || response.status > 299)
    throw new BadResponseError(`HTTP ${response.status}`, response.status);
  if (response.truncated) throw new BadResponseError(`body larger than ${options.maxBytes} bytes`);
  try {
    return JSON.parse(response.text);
  } catch {
    throw new BadResponseError('body is not JSON');
  }
}
