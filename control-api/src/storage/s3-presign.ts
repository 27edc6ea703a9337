/**
 * AWS Signature Version 4 query-string presigning (the "presigned URL"), for S3 requests a
 * browser sends straight to the bucket. Written against the AWS reference ("Authenticating
 * Requests: Using Query Parameters") because @aws-sdk/s3-request-presigner is not a dependency;
 * the reference's own worked example is a unit test.
 */
import { createHash, createHmac } from 'node:crypto';

export interface TPresignInput {
  method: 'GET' | 'PUT';
  /** Full URL without the signature parameters; its query (e.g. partNumber, uploadId) is signed too. */
  url: URL;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Epoch milliseconds the signature is made at. */
  now: number;
  /** 1 second to 7 days, as S3 allows. */
  expiresInSeconds: number;
  /**
   * Headers the request must carry with exactly these values (names any case), signed besides host:
   * `content-length` binds the body's size, `x-amz-checksum-sha256` its content. S3 refuses the
   * request (403 SignatureDoesNotMatch) when one differs.
   */
  signedHeaders?: Readonly<Record<string, string>>;
}

const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;

/** Returns the URL with X-Amz-* parameters that let its holder make exactly this request until it expires. */
export function presignS3Url(input: TPresignInput): URL {
  const { method, region, accessKeyId, secretAccessKey } = input;
  if (!Number.isInteger(input.expiresInSeconds) || input.expiresInSeconds < 1 || input.expiresInSeconds > MAX_EXPIRES_SECONDS) {
    throw new RangeError(`Presigned URLs live 1 s to 7 days, not ${input.expiresInSeconds} s`);
  }
  const amzDate = new Date(input.now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${region}/s3/aws4_request`;

  const params = new Map<string, string>();
  for (const [name, value] of input.url.searchParams) params.set(name, value);
  params.set('X-Amz-Algorithm', 'AWS4-HMAC-SHA256');
  params.set('X-Amz-Credential', `${accessKeyId}/${scope}`);
  params.set('X-Amz-Date', amzDate);
  params.set('X-Amz-Expires', String(input.expiresInSeconds));
  if (input.sessionToken) params.set('X-Amz-Security-Token', input.sessionToken);
  const headers = new Map<string, string>([['host', input.url.host]]);
  for (const [name, value] of Object.entries(input.signedHeaders ?? {})) headers.set(name.toLowerCase(), value.trim().replace(/ +/g, ' '));
  const headerNames = [...headers.keys()].sort();
  params.set('X-Amz-SignedHeaders', headerNames.join(';'));

  const canonicalQuery = [...params]
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  // The path is already percent-encoded by URL; S3 signs it as sent, without encoding it twice.
  const canonicalPath = input.url.pathname
    .split('/')
    .map((segment) => encodeRfc3986(decodeURIComponent(segment)))
    .join('/');
  const canonicalHeaders = headerNames.map((name) => `${name}:${headers.get(name)}\n`).join('');
  const canonicalRequest = [method, canonicalPath, canonicalQuery, canonicalHeaders, headerNames.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');

  let key: Buffer = hmac(`AWS4${secretAccessKey}`, day);
  for (const part of [region, 's3', 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');

  const signed = new URL(input.url.toString());
  signed.search = `${canonicalQuery}&X-Amz-Signature=${signature}`;
  return signed;
}

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, including '/' in query values. */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
