/**
 * What browser code (islands, scripts) takes from @dropsite/shared: constants and pure helpers
 * only. Imported by subpath, not through the package index, because the index also exports the
 * zod schemas, whose module-level definitions would put zod in every island bundle.
 */
export * from '@dropsite/shared/constants';
export { formatBytes } from '@dropsite/shared/file-kind';
export { FILE_ICON_PATHS } from '@dropsite/shared/file-types';
