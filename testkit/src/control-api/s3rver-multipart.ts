/**
 * s3rver 3.7 implements CreateMultipartUpload, UploadPart and CompleteMultipartUpload but not
 * ListParts, AbortMultipartUpload or ListMultipartUploads, and it accepts parts for uploads that
 * no longer exist. This Koa middleware adds those calls to it, answering as the S3 API reference
 * documents (XML bodies, NoSuchUpload 404), from s3rver's own store of pending uploads.
 * Signatures are not checked here; s3rver does not check SigV4 signatures either.
 */
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

interface TKoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}

type TKoaMiddleware = (ctx: TKoaContext, next: () => Promise<void>) => Promise<void>;

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export function createS3rverMultipartMiddleware(directory: string): TKoaMiddleware {
  const uploadsDirOf = (bucket: string) => path.join(directory, bucket, '._S3rver_uploads');

  return async (ctx, next) => {
    const segments = ctx.path
      .split('/')
      .slice(1)
      .map((s) => decodeURIComponent(s));
    const bucket = segments[0];
    const key = segments.slice(1).join('/');
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    if (!bucket) return next();

    if (key === '' && ctx.method === 'GET' && 'uploads' in ctx.query) {
      const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
      const uploads = await listUploads(uploadsDirOf(bucket));
      const rows = uploads
        .filter((u) => u.key.startsWith(prefix))
        .map((u) => `<Upload><Key>${escapeXml(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.initiated}</Initiated></Upload>`)
        .join('');
      sendXml(
        ctx,
        200,
        `<ListMultipartUploadsResult xmlns="${NS}"><Bucket>${escapeXml(bucket)}</Bucket><Prefix>${escapeXml(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${rows}</ListMultipartUploadsResult>`,
      );
      return;
    }
    if (key === '' || uploadId === undefined || !/^[0-9a-f]{32}$/.test(uploadId)) return next();

    const uploadDir = path.join(uploadsDirOf(bucket), uploadId);
    const storedKey = await readFile(path.join(uploadDir, 'key'), 'utf8').catch(() => null);
    if (storedKey !== key) {
      sendXml(ctx, 404, `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`);
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(uploadDir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    if (ctx.method === 'GET' && !('partNumber' in ctx.query)) {
      const parts = await listPartsOf(uploadDir);
      const rows = parts
        .map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><LastModified>${p.lastModified}</LastModified><ETag>"${p.md5}"</ETag><Size>${p.size}</Size></Part>`)
        .join('');
      sendXml(
        ctx,
        200,
        `<ListPartsResult xmlns="${NS}"><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId><PartNumberMarker>0</PartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${rows}</ListPartsResult>`,
      );
      return;
    }
    return next();
  };
}

async function listUploads(uploadsDir: string): Promise<Array<{ key: string; uploadId: string; initiated: string }>> {
  const names = await readdir(uploadsDir).catch(() => [] as string[]);
  const uploads = [];
  for (const uploadId of names) {
    const keyPath = path.join(uploadsDir, uploadId, 'key');
    const key = await readFile(keyPath, 'utf8').catch(() => null);
    if (key === null) continue;
    uploads.push({ key, uploadId, initiated: (await stat(keyPath)).mtime.toISOString() });
  }
  return uploads.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

async function listPartsOf(uploadDir: string): Promise<Array<{ partNumber: number; size: number; md5: string; lastModified: string }>> {
  const parts = [];
  for (const name of await readdir(uploadDir)) {
    if (!/^\d+$/.test(name)) continue;
    // s3rver writes the .md5 file after the part's bytes: a part without it is still being written.
    const md5 = await readFile(path.join(uploadDir, `${name}.md5`), 'utf8').catch(() => null);
    if (md5 === null) continue;
    const info = await stat(path.join(uploadDir, name));
    parts.push({ partNumber: Number(name), size: info.size, md5, lastModified: info.mtime.toISOString() });
  }
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

function sendXml(ctx: TKoaContext, status: number, xml: string): void {
  ctx.status = status;
  ctx.type = 'application/xml';
  ctx.body = XML_HEADER + xml;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);
}
