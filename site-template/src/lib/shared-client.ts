/**
 * What browser code (islands, scripts) takes from @dropsite/shared: constants and pure helpers
 * only. Imported by path, not through the package index, because the index also exports the
 * zod schemas, whose module-level definitions would put zod in every island bundle.
 */
export * from '../../../shared/src/constants.ts';
export { formatBytes } from '../../../shared/src/file-kind.ts';
export { FILE_ICON_PATHS } from '../../../shared/src/file-types.ts';
