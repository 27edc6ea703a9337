/** @dropsite/builder: turns a project and its files into a published site. */
export type { BuilderStorage, TBuildFile, TBuildInput, TBuildProject, TBuildReport, TBuildResult, TBuilderLogger } from './types.ts';
export { createSiteBuilder, buildRenderModel, siteHtmlKey, SITE_HTML_CACHE_CONTROL, SITE_HTML_CONTENT_TYPE } from './build-site.ts';
export type { SiteBuilder, TSiteBuilderDeps } from './build-site.ts';
export { deriveImage, readCachedDerivation, derivedKeys, isDerivableImage, IMMUTABLE_CACHE_CONTROL } from './derive-image.ts';
export type { TDeriveImageOptions, TDeriveImageOutcome } from './derive-image.ts';
export { loadSiteRenderer, templatePaths, TemplateNotBuiltError } from './render.ts';
export type { SiteRenderer, TTemplatePaths } from './render.ts';
export { publishTemplateAssets, readAssetManifest, assetContentType } from './publish-assets.ts';
export type { TPublishAssetsResult, TAssetManifest } from './publish-assets.ts';
