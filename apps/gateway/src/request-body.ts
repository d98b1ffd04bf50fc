// How every transport reads a request body: JSON in UTF-8, optionally compressed with
// gzip, deflate or br, at most 25 MB once inflated. What breaks these rules is a 4xx
// naming the problem (415 charset or encoding, 400 corrupt body, 413 too large), never a 500.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** The body limit of every transport; lead uploads carry up to 10,000 leads with custom variables. */
export const BODY_LIMIT_BYTES = 25 * 1024 * 1024;

/** A request-level failure, before any operation runs. */
export interface RequestProblem {
  status: 400 | 413 | 415;
  code: string;
  message: string;
}

export class RequestProblemError extends Error {
  readonly problem: RequestProblem;
  constructor(problem: RequestProblem) {
    super(problem.message);
    this.name = 'RequestProblemError';
    this.problem = problem;
  }
}

/** Content codings the body may use (what express.json inflates). */
export const BODY_ENCODINGS = ['gzip', 'deflate', 'br'] as const;
type BodyEncoding = (typeof BODY_ENCODINGS)[number];

/** Beyond BODY_LIMIT_BYTES, read or inflated. */
export const TOO_LARGE: RequestProblem = { status: 413, code: 'request.too_large', message: 'request body is too large (limit 25 MB)' };

function charsetOf(contentType: string | null | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? '').toLowerCase() : undefined;
}

/** JSON is UTF-8 (RFC 8259): a charset parameter, when given, must say so. */
export function charsetProblem(contentType: string | null | undefined): RequestProblem | null {
  const charset = charsetOf(contentType);
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return null;
  return {
    status: 415,
    code: 'request.unsupported_charset',
    message: `request body charset "${charset}" is not supported: send UTF-8 (charset=utf-8, or no charset)`,
  };
}

/** The Content-Encoding as a list of codings, identity left out. */
function codingsOf(contentEncoding: string | null | undefined): string[] {
  return (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
}

function unsupportedEncoding(contentEncoding: string): RequestProblem {
  return {
    status: 415,
    code: 'request.unsupported_encoding',
    message: `content encoding "${contentEncoding}" is not supported: send the body as is, or with one of ${BODY_ENCODINGS.join(', ')}`,
  };
}

function corruptBody(encoding: string): RequestProblem {
  return { status: 400, code: 'request.malformed_encoding', message: `request body is not valid ${encoding} (Content-Encoding: ${encoding})` };
}

/** Whether the request carries a body (what body-parser checks). */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
}

/**
 * express.json with the shared rules: UTF-8 only, 25 MB, gzip/deflate/br inflated.
 * Failures reach `next` for the transport to answer (see `requestProblemOf`). With
 * `asText`, `req.body` is the inflated JSON text, for a transport that parses it itself
 * (tRPC would otherwise re-serialize the parsed body, which overflows the stack on
 * deeply nested JSON).
 */
export function jsonBodyParser(options: { type: string[]; asText?: boolean }): RequestHandler {
  const parse = options.asText
    ? express.text({ limit: BODY_LIMIT_BYTES, type: options.type, defaultCharset: 'utf-8' })
    : express.json({ limit: BODY_LIMIT_BYTES, type: options.type });
  return (req: Request, res: Response, next: NextFunction) => {
    if (hasBody(req)) {
      const problem = charsetProblem(req.headers['content-type']);
      if (problem) return next(new RequestProblemError(problem));
    }
    parse(req, res, next);
  };
}

/**
 * The request problem behind an error thrown while reading a request (body-parser's
 * errors, undecodable path parameters), or null for anything else.
 */
export function requestProblemOf(error: unknown, req: Pick<Request, 'headers'>): RequestProblem | null {
  if (error instanceof RequestProblemError) return error.problem;
  const e = error as { type?: string; status?: number; statusCode?: number; message?: string } | null;
  if (!e || typeof e !== 'object') return null;
  const contentEncoding = String(req.headers['content-encoding'] ?? '');
  switch (e.type) {
    case 'entity.parse.failed':
      return { status: 400, code: 'request.malformed_json', message: 'request body is not valid JSON' };
    case 'entity.too.large':
      return TOO_LARGE;
    case 'charset.unsupported':
      return charsetProblem(String(req.headers['content-type'])) ?? { status: 415, code: 'request.unsupported_charset', message: 'request body charset is not supported: send UTF-8' };
    case 'encoding.unsupported':
      return unsupportedEncoding(contentEncoding);
    case 'request.aborted':
      return { status: 400, code: 'request.aborted', message: 'request body was cut short' };
    case 'request.size.invalid':
      return { status: 400, code: 'request.malformed_body', message: 'request body size does not match its Content-Length' };
  }
  const status = e.status ?? e.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  // A decompression stream failed: the body is not what its Content-Encoding says.
  if (status === 400 && !e.type && codingsOf(contentEncoding).length) return corruptBody(codingsOf(contentEncoding).join(', '));
  if (status === 413) return TOO_LARGE;
  return { status: status === 415 ? 415 : 400, code: 'request.malformed', message: `malformed request: ${e.message ?? 'unreadable'}` };
}

const INFLATE: Record<BodyEncoding, (buffer: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The same rules for a Fetch API request (GraphQL): answers the body to use instead,
 * inflated, or null when the request may go on as it is; throws a RequestProblemError.
 */
export async function decodeFetchBody(r: globalThis.Request): Promise<Buffer | null> {
  if (r.method === 'GET' || r.method === 'HEAD' || !r.body) return null;
  const charset = charsetProblem(r.headers.get('content-type'));
  if (charset) throw new RequestProblemError(charset);
  const contentEncoding = r.headers.get('content-encoding');
  const codings = codingsOf(contentEncoding);
  if (!codings.length) return null;
  if (codings.length > 1 || !(BODY_ENCODINGS as readonly string[]).includes(codings[0]!)) throw new RequestProblemError(unsupportedEncoding(contentEncoding ?? ''));
  const encoding = codings[0] as BodyEncoding;
  const length = Number(r.headers.get('content-length'));
  if (Number.isFinite(length) && length > BODY_LIMIT_BYTES) throw new RequestProblemError(TOO_LARGE);
  const raw = await readLimited(r.body, BODY_LIMIT_BYTES);
  if (!raw) throw new RequestProblemError(TOO_LARGE);
  try {
    return await INFLATE[encoding](raw, { maxOutputLength: BODY_LIMIT_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new RequestProblemError(TOO_LARGE);
    throw new RequestProblemError(corruptBody(encoding));
  }
}
