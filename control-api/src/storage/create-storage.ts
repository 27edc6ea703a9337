/** Picks the storage driver from configuration. */
import { createDiskStorage } from './disk-storage.ts';
import type { TS3StorageOptions } from './s3-storage.ts';
import type { Storage } from './storage.ts';

export type TStorageConfig = { driver: 'disk'; root: string } | ({ driver: 's3' } & TS3StorageOptions);

export async function createStorage(config: TStorageConfig): Promise<Storage> {
  if (config.driver === 'disk') return createDiskStorage(config.root);
  const { driver: _driver, ...s3Options } = config;
  // The S3 client is a large library: loaded only by processes that use it.
  const { createS3Storage, ensureBucket } = await import('./s3-storage.ts');
  await ensureBucket(s3Options);
  return createS3Storage(s3Options);
}
