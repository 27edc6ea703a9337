/** Files whose bytes are in storage and the rows that put them on a site, the same at publishing and when an owner adds some later. */
import { detectFileKind, sanitizeFileName } from '@dropsite/shared';
import type { TFileRow, TNewFile } from '../db/tables.ts';

/** A file whose bytes are stored (by the streaming upload engine or an assembled upload session), before it has a row. */
export interface TStoredFile {
  fileId: string;
  storageKey: string;
  size: number;
  sha256: string;
  originalName: string;
  clientType: string;
  /** The folder the file was dropped in, already cleaned by ZFileGroupSchema; absent or null for none. */
  group?: string | null;
}

/** The file's row at `position` of the site: its name made safe, its kind told from that name and the client's type. */
export function storedFileRow(siteId: string, file: TStoredFile, position: number, now: number): TNewFile {
  const name = sanitizeFileName(file.originalName);
  return {
    id: file.fileId,
    project_id: siteId,
    name,
    type: file.clientType.slice(0, 255),
    size: file.size,
    storage_key: file.storageKey,
    sha256: file.sha256,
    kind: detectFileKind(name, file.clientType),
    metadata: '{}',
    position,
    created_at: now,
    group_name: file.group ?? null,
  };
}

/** What every answer about a stored file starts with: its id, name, type, kind and size. */
export function fileBasicsOf(file: Pick<TFileRow, 'id' | 'name' | 'type' | 'kind' | 'size'>): Pick<TFileRow, 'id' | 'name' | 'type' | 'kind' | 'size'> {
  return { id: file.id, name: file.name, type: file.type, kind: file.kind, size: file.size };
}
