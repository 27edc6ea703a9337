import { lazy, Suspense, useCallback, useEffect, useId, useReducer, useRef, useState } from 'react';
import { APP_PATHS, chooseUploadMode, type TUploadDraft, type TUploadMode } from '@dropsite/shared';
import { AlertIcon } from '../ui/icons.tsx';
import { totalBytes, type TPickedFile } from '../upload/chosen-files.ts';
import { loadSchemas } from '../schemas/lazy-schemas.ts';
import { clearUploadDraft, fingerprintFile, findInterruptedUpload, forgetInterruptedUpload, saveUploadDraft } from '../upload/resume-store.ts';
import { PUBLISH_FAILED_MESSAGE, describePublishError, isAbortError } from '../upload/upload-errors.ts';
import { createTransferMeter, type TTransferEstimate } from '../upload/upload-progress.ts';
import type { TPublishSnapshot } from '../upload/upload-progress-tracker.ts';
import { toExpiryInstant, validateDetails } from './details-validation.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { templateFromSearch } from './template-param.ts';
import { UploadStep } from './upload-step.tsx';
import { INITIAL_WIZARD_STATE, reduceWizard, type TWizardAction, type TWizardState, type TWizardStep } from './wizard-state.ts';
import '../ui/rise-in.css';
import './wizard.css';

const STEP_HEADINGS: Record<TWizardStep, { title: string; lede: string }> = {
  upload: { title: 'Add your files', lede: 'Any file type, as many as you need.' },
  template: { title: 'Choose a template', lede: 'How your files are laid out for visitors.' },
  details: { title: 'Site details', lede: 'What visitors see, and who can open it.' },
  settings: { title: 'Engagement', lede: 'What visitors can do on your site.' },
  preview: { title: 'Site details', lede: 'What visitors see, and who can open it.' },
  success: { title: 'Published', lede: '' },
};
/** The steps the indicator counts; the preview opens over the details step. */
const COUNTED_STEPS: TWizardStep[] = ['upload', 'template', 'details', 'settings'];

/**
 * The upload machinery (four protocols, their replies' schemas, the resume records) loads once the
 * creator has chosen files, so the landing page does not ship it to every visitor.
 */
const loadLaterSteps = () => import('./later-steps.ts');
const TemplateStep = lazy(() => loadLaterSteps().then((steps) => ({ default: steps.TemplateStep })));
const DetailsStep = lazy(() => loadLaterSteps().then((steps) => ({ default: steps.DetailsStep })));
const SettingsStep = lazy(() => loadLaterSteps().then((steps) => ({ default: steps.SettingsStep })));
const SuccessStep = lazy(() => loadLaterSteps().then((steps) => ({ default: steps.SuccessStep })));
const PreviewOverlay = lazy(() => loadLaterSteps().then((steps) => ({ default: steps.PreviewOverlay })));
const AlmostDoneOverlay = lazy(() => loadLaterSteps().then((steps) => ({ default: steps.AlmostDoneOverlay })));

const loadPublisher = () => Promise.all([import('../upload/publish-site.ts'), loadSchemas()]).then(([module]) => module.publishSite);

/** A refusal a better plan cures (storage, delivery size, active sites): the failure offers the plans. Loaded only when publishing fails. */
const isPlanLimitError = (error: unknown) =>
  import('../billing/billing-view.ts').then(
    (view) => view.planLimitOf(error) !== null,
    () => false,
  );

let lastFileId = 0;
const createFileId = () => `file-${++lastFileId}`;

const reduce = (state: TWizardState, action: TWizardAction) => reduceWizard(state, action, (form) => validateDetails(form, new Date()).canContinue);

type TPublishState =
  | { name: 'idle' }
  | { name: 'running'; mode: TUploadMode; snapshot: TPublishSnapshot | null; estimate: TTransferEstimate | null }
  | { name: 'done'; url: string; slug: string };

export interface TPublishedEventDetail {
  projectId?: string;
  slug: string;
  url: string;
}

/** The creator's upload and publish wizard (spec 2.6): upload, template, details, settings, preview, success. */
export function UploadWizard() {
  // Read before the first render, so a restored form and the notice never make the page jump.
  const [interrupted, setInterrupted] = useState<TUploadDraft | null>(() => findInterruptedUpload(Date.now()));
  const [state, dispatch] = useReducer(reduce, INITIAL_WIZARD_STATE, (initial) => {
    if (interrupted) return reduce(initial, { type: 'restore-form', form: interrupted.form });
    // 'Use this template' in the template gallery opens /?template={id}#upload: start with it chosen.
    const template = typeof window === 'undefined' ? null : templateFromSearch(window.location.search);
    return template ? reduce(initial, { type: 'choose-template', template }) : initial;
  });
  const [publish, setPublish] = useState<TPublishState>({ name: 'idle' });
  const [failure, setFailure] = useState<{ detail: string | null; isPlanLimit: boolean } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const abort = useRef<AbortController | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const previousStep = useRef(state.step);
  const ids = { heading: useId(), failureTitle: useId(), failureDetail: useId() };

  const announce = useCallback((message: string) => setAnnouncement(message), []);
  const addFiles = useCallback((files: TPickedFile[]) => dispatch({ type: 'add-files', files, createId: createFileId }), []);

  // Move focus to the new step's heading so keyboard and screen-reader users follow along.
  useEffect(() => {
    if (previousStep.current === state.step) return;
    const wasPreview = previousStep.current === 'preview';
    previousStep.current = state.step;
    if (state.step === 'preview' || state.step === 'success') return;
    if (wasPreview && state.step === 'details') return;
    body.current?.querySelector<HTMLElement>('[data-step-heading]')?.focus();
  }, [state.step]);

  // Files chosen: fetch the next steps and the upload machinery now, so neither Continue nor Publish waits.
  const hasFiles = state.files.length > 0;
  useEffect(() => {
    if (!hasFiles) return;
    // A failed fetch is tried again by the step that needs it (and a failed publish is reported).
    loadLaterSteps().catch(() => {});
    loadPublisher().catch(() => {});
  }, [hasFiles]);

  useEffect(() => {
    if (publish.name !== 'running') return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [publish.name]);

  const startPublish = async () => {
    const files = state.files.map((f) => f.file);
    const mode = chooseUploadMode(files);
    const meter = createTransferMeter(totalBytes(state.files));
    const controller = new AbortController();
    abort.current = controller;
    // Kept until the site is published, so a reload mid-upload can fill the form in again and continue.
    saveUploadDraft({
      files: files.map(fingerprintFile),
      form: {
        title: state.form.title,
        description: state.form.description,
        authorName: state.form.authorName,
        expiryDate: state.form.expiryDate,
        template: state.form.template,
        look: state.form.look,
        settings: state.form.settings,
        contactInfo: state.form.contactInfo,
      },
      hadPassword: state.form.password !== '',
      savedAt: Date.now(),
    });
    setInterrupted(null);
    dispatch({ type: 'publish' });
    setPublish({ name: 'running', mode, snapshot: null, estimate: null });
    let frame = 0;
    let latest: TPublishSnapshot | null = null;
    try {
      const publishSite = await loadPublisher();
      const result = await publishSite(
        files,
        {
          title: state.form.title,
          description: state.form.description,
          authorName: state.form.authorName,
          template: state.form.template,
          look: {
            style: state.form.look.style,
            colorMode: state.form.look.colorMode,
            heroLayout: state.form.look.heroLayout,
            visitorModeToggle: state.form.look.visitorModeToggle,
          },
          password: state.form.password,
          expiryDate: toExpiryInstant(state.form.expiryDate),
          settings: state.form.settings,
          contactInfo: state.form.contactInfo,
          groups: state.files.map((f) => f.group),
        },
        {
          signal: controller.signal,
          onProgress: (snapshot) => {
            latest = snapshot;
            // Progress events come faster than frames; render at most once per frame.
            if (frame) return;
            frame = requestAnimationFrame(() => {
              frame = 0;
              const s = latest!;
              const estimate = meter(s.sentBytes, s.totalBytes);
              setPublish((p) => (p.name === 'running' ? { ...p, snapshot: s, estimate } : p));
            });
          },
        },
      );
      cancelAnimationFrame(frame);
      clearUploadDraft();
      setPublish({ name: 'done', url: result.url, slug: result.slug });
      setAnnouncement('Your site has been created.');
      window.dispatchEvent(new CustomEvent<TPublishedEventDetail>('dropsite:published', { detail: { slug: result.slug, url: result.url } }));
    } catch (error) {
      cancelAnimationFrame(frame);
      setPublish({ name: 'idle' });
      dispatch({ type: 'publish-failed' });
      if (isAbortError(error)) setAnnouncement('Upload cancelled. Your files and details are still here.');
      else setFailure({ detail: describePublishError(error), isPlanLimit: await isPlanLimitError(error) });
    } finally {
      abort.current = null;
    }
  };

  const step = state.step;
  const heading = STEP_HEADINGS[step];
  const stepIndex = COUNTED_STEPS.indexOf(step === 'preview' ? 'settings' : step);

  return (
    <section id="upload" tabIndex={-1} className="wizard" aria-labelledby={ids.heading} data-step={step}>
      {step !== 'success' && (
        <header className="wizard__header">
          <ol className="wizard-progress" aria-label={`Step ${stepIndex + 1} of ${COUNTED_STEPS.length}`}>
            {COUNTED_STEPS.map((s, i) => (
              <li key={s} data-state={i < stepIndex ? 'done' : i === stepIndex ? 'current' : 'todo'} aria-current={i === stepIndex ? 'step' : undefined} />
            ))}
          </ol>
          <h2 id={ids.heading} className="wizard__title" data-step-heading tabIndex={-1}>
            <span className="wizard__step-number">
              Step {stepIndex + 1} of {COUNTED_STEPS.length}
            </span>
            {heading.title}
          </h2>
          <p className="wizard__lede">{heading.lede}</p>
        </header>
      )}
      {step === 'success' && (
        <h2 id={ids.heading} className="visually-hidden">
          Publish
        </h2>
      )}

      <div className="wizard__body" ref={body} key={step === 'preview' ? 'details' : step}>
        <Suspense fallback={<div className="wizard__step-loading" aria-busy="true" />}>
          {step === 'upload' && (
            <UploadStep
              files={state.files}
              interrupted={
                interrupted && {
                  files: interrupted.files,
                  hadPassword: interrupted.hadPassword,
                  onStartOver: () => {
                    forgetInterruptedUpload();
                    setInterrupted(null);
                    dispatch({ type: 'create-another' });
                    announce('Starting over with an empty form');
                  },
                }
              }
              overLimit={state.overLimit}
              onAdd={addFiles}
              onRemove={(id) => dispatch({ type: 'remove-file', id })}
              onRemoveDuplicates={() => dispatch({ type: 'remove-duplicates' })}
              onClear={() => dispatch({ type: 'clear-files' })}
              onContinue={() => dispatch({ type: 'continue' })}
              announce={announce}
            />
          )}
          {step === 'template' && (
            <TemplateStep
              files={state.files}
              template={state.form.template}
              onChoose={(template) => dispatch({ type: 'choose-template', template })}
              look={state.form.look}
              onLook={(look) => dispatch({ type: 'set-look', look })}
              onBack={() => dispatch({ type: 'back' })}
              onContinue={() => dispatch({ type: 'continue' })}
              onRemoveFile={(id) => dispatch({ type: 'remove-file', id })}
            />
          )}
          {(step === 'details' || step === 'preview') && (
            <DetailsStep
              form={state.form}
              onEdit={(field, value) => dispatch({ type: 'edit', field, value })}
              onEditContact={(field, value) => dispatch({ type: 'edit-contact', field, value })}
              onBack={() => dispatch({ type: 'back' })}
              onContinue={() => dispatch({ type: 'continue' })}
            />
          )}
          {step === 'settings' && (
            <SettingsStep
              settings={state.form.settings}
              onChange={(settings) => dispatch({ type: 'set-setting', settings })}
              onBack={() => dispatch({ type: 'back' })}
              onContinue={() => dispatch({ type: 'continue' })}
            />
          )}
          {step === 'success' && (
            <SuccessStep
              url={publish.name === 'done' ? publish.url : null}
              slug={publish.name === 'done' ? publish.slug : null}
              title={state.form.title}
              onCreateAnother={() => {
                dispatch({ type: 'create-another' });
                setPublish({ name: 'idle' });
              }}
            />
          )}
        </Suspense>
      </div>

      <Suspense fallback={null}>
        {step === 'preview' && <PreviewOverlay form={state.form} files={state.files} onEdit={() => dispatch({ type: 'back' })} onPublish={() => void startPublish()} />}

        {step === 'success' && publish.name === 'running' && (
          <AlmostDoneOverlay mode={publish.mode} files={state.files} snapshot={publish.snapshot} estimate={publish.estimate} onCancel={() => abort.current?.abort()} />
        )}
      </Suspense>

      <ModalDialog isOpen={failure !== null} onClose={() => setFailure(null)} labelledBy={ids.failureTitle} describedBy={ids.failureDetail} isAlert className="failure-dialog">
        <span className="failure-dialog__icon" aria-hidden="true">
          <AlertIcon size={22} />
        </span>
        <h3 id={ids.failureTitle} className="wizard-dialog__title">
          {PUBLISH_FAILED_MESSAGE}
        </h3>
        <div id={ids.failureDetail} className="failure-dialog__detail">
          {failure?.detail && <p className="failure-dialog__reason">{failure.detail}</p>}
          <p>Nothing was published. Your files and details are kept, so you can publish again.</p>
        </div>
        {failure?.isPlanLimit && (
          <a className="button button--secondary" href={APP_PATHS.billing} target="_blank" rel="noopener">
            See plans and upgrade
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        )}
        <button type="button" className="button button--primary" onClick={() => setFailure(null)} autoFocus>
          OK
        </button>
      </ModalDialog>

      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}
