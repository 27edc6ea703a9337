/**
 * The wizard's steps after the first one, and its overlays: one chunk, fetched once the creator has
 * chosen files (upload-wizard.tsx), so the landing page's first load carries only the upload step.
 */
export { AlmostDoneOverlay } from './almost-done-overlay.tsx';
export { DetailsStep } from './details-step.tsx';
export { PreviewOverlay } from './preview-overlay.tsx';
export { SettingsStep } from './settings-step.tsx';
export { SuccessStep } from './success-step.tsx';
export { TemplateStep } from './template-step.tsx';
