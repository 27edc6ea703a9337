/**
 * @dropsite/builder/test-support: what other packages' tests use of the builder's fixtures
 * (real PDFs, videos, presentations and hostile ZIPs, and the one-time template build).
 */
export * from './media-fixtures.ts';
export { ensureTemplateBuilt } from './ensure-template-built.ts';
