/** Storage on the local file system: one file per object, written atomically through a temp file. */
import { createDiskLayout } from './disk-layout.ts';
import { createDiskMultipart } from './disk-multipart.ts';
import { createDiskObjects } from './disk-objects.ts';
import type { Storage } from './storage.ts';

export function createDiskStorage(rootDir: string): Storage {
  const layout = createDiskLayout(rootDir);
  return {
    driver: 'disk',
    ...createDiskObjects(layout),
    ...createDiskMultipart(layout),
    // Disk has no URL of its own: parts reach it through the API's chunk endpoint.
    createPartUploadUrl: async () => null,
  };
}
