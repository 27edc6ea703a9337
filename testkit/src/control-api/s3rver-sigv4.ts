/**
 * s3rver 3.7 accepts any SigV4 signature ("Signature version 4 calculation is unimplemented").
 * This Koa middleware checks presigned (query-string) SigV4 requests the way S3 does, so tests
 * see what a real bucket answers: 403 AccessDenied once X-Amz-Expires has passed, and 403
 * SignatureDoesNotMatch when the request differs from what was signed, such as a body whose
 * Content-Length is not the signed one, or an x-amz-checksum-sha256 (-crc32) other than the signed
 * one (or none). Like S3, a presigned request carrying x-amz-checksum-sha256 or -crc32 must also have
 * a body of that checksum, else 400 BadDigest (s3rver checks no checksums). Requests signed in the Authorization
 * header (the SDK's) pass through unchecked, as before.
 */
import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32Base64 } from '../bytes.ts';

interface TKoaContext {
  /** The Node request; s3rver reads bodies from it. */
  req: Readable & { headers: Record<string, string | string[] | undefined> };
  method: string;
  path: string;
  querystring: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}

type TKoaMiddleware = (ctx: TKoaContext, next: () => Promise<void>) => Promise<void>;

/** Access key id to secret, as s3rver's default account has it. */
const SECRETS: Readonly<Record<string, string>> = { S3RVER: 'S3RVER' };

export function createS3rverSigV4Middleware(now: () => number = Date.now): TKoaMiddleware {
  return async (ctx, next) => {
    const query = new URLSearchParams(ctx.querystring);
    if (query.get('X-Amz-Algorithm') === null) return next();
    const refuse = (code: string, message: string, status = 403) => {
      ctx.status = status;
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
    };

    const credential = (query.get('X-Amz-Credential') ?? '').split('/');
    const [accessKeyId, day, region, service, terminator] = credential;
    const amzDate = query.get('X-Amz-Date') ?? '';
    const expires = Number(query.get('X-Amz-Expires'));
    const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';');
    const signature = query.get('X-Amz-Signature') ?? '';
    const secret = accessKeyId === undefined ? undefined : SECRETS[accessKeyId];
    if (
      query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' ||
      credential.length !== 5 ||
      service !== 's3' ||
      terminator !== 'aws4_request' ||
      !/^\d{8}T\d{6}Z$/.test(amzDate) ||
      amzDate.slice(0, 8) !== day ||
      !Number.isInteger(expires) ||
      !signedHeaders.includes('host')
    ) {
      return refuse('AuthorizationQueryParametersError', 'Query-string authentication version 4 requires the X-Amz-* parameters.');
    }
    if (secret === undefined) return refuse('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    const signedAt = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
    if (now() > signedAt + expires * 1000) return refuse('AccessDenied', 'Request has expired');

    const canonicalQuery = [...query]
      .filter(([name]) => name !== 'X-Amz-Signature')
      .map(([name, value]) => [encode(name), encode(value)] as const)
      .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
    const canonicalPath = ctx.path
      .split('/')
      .map((segment) => encode(decodeURIComponent(segment)))
      .join('/');
    const canonicalHeaders = signedHeaders
      .map((name) => {
        const value = ctx.headers[name];
        return `${name}:${(Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/ +/g, ' ')}\n`;
      })
      .join('');
    const canonicalRequest = [ctx.method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
    let key: Buffer = createHmac('sha256', `AWS4${secret}`)
      .update(day ?? '')
      .digest();
    for (const part of [region ?? '', 's3', 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
    if (createHmac('sha256', key).update(stringToSign).digest('hex') !== signature) {
      return refuse('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
    const checksum = ctx.headers['x-amz-checksum-sha256'];
    const checksumCrc32 = ctx.headers['x-amz-checksum-crc32'];
    if (typeof checksum === 'string' || typeof checksumCrc32 === 'string') {
      // Parts are at most a few MiB in tests: read whole, checked, then handed to s3rver as if unread.
      const pieces: Buffer[] = [];
      for await (const piece of ctx.req) pieces.push(piece as Buffer);
      const body = Buffer.concat(pieces);
      if (typeof checksum === 'string' && createHash('sha256').update(body).digest('base64') !== checksum) {
        return refuse('BadDigest', 'The SHA256 you specified did not match the calculated checksum.', 400);
      }
      if (typeof checksumCrc32 === 'string' && crc32Base64(body) !== checksumCrc32) {
        return refuse('BadDigest', 'The CRC32 you specified did not match the calculated checksum.', 400);
      }
      ctx.req = Object.assign(Readable.from([body]), { headers: ctx.req.headers });
    }
    return next();
  };
}

function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
