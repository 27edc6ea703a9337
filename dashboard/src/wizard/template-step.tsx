import { useId, useState, type ReactElement } from 'react';
import { TEMPLATE_CATALOGUE, TEMPLATE_IDS, formatBytes, type TSiteLook, type TTemplateId } from '@dropsite/shared';
import { DemoPreviewPicture } from '../ui/demo-preview-picture.tsx';
import { LookFields } from '../ui/look-fields.tsx';
import { CloseIcon, ImageIcon, CalendarIcon, GridIcon, PresentationIcon, UserIcon } from '../ui/icons.tsx';
import { totalBytes, type TChosenFile } from '../upload/chosen-files.ts';
import { FileList } from '../upload/file-list.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { WizardActions } from './wizard-actions.tsx';
import '../ui/choice-tile.css';
import '../ui/column-grid.css';
import '../ui/round-icon-button.css';

interface TTemplateChoice {
  name: string;
  description: string;
  Icon: (p: { size?: number }) => ReactElement;
}

const ICONS: Record<TTemplateId, TTemplateChoice['Icon']> = {
  universal: GridIcon,
  'photo-gallery': ImageIcon,
  'portfolio-resume': UserIcon,
  'event-template': CalendarIcon,
  'pitch-template': PresentationIcon,
  'product-template': ImageIcon,
  'case-study-template': PresentationIcon,
  'client-delivery': GridIcon,
};

/** Each template's name and line from the shared catalogue, with the wizard's icon for it. */
export const TEMPLATES = Object.fromEntries(
  TEMPLATE_IDS.map((id) => [id, { name: TEMPLATE_CATALOGUE[id].name, description: TEMPLATE_CATALOGUE[id].description, Icon: ICONS[id] }]),
) as Record<TTemplateId, TTemplateChoice>;

/** A card's picture: half the step's width from 520 px up, else half the phone's width. */
const CARD_PICTURE_SIZES = '(min-width: 640px) 290px, 46vw';

interface TTemplateStepProps {
  files: readonly TChosenFile[];
  template: TTemplateId;
  onChoose: (template: TTemplateId) => void;
  look: TSiteLook;
  onLook: (look: Partial<TSiteLook>) => void;
  onBack: () => void;
  onContinue: () => void;
  onRemoveFile: (id: string) => void;
}

/** Step 2: the chosen files at a glance, the template (each with its demo's picture) and the site's look. */
export function TemplateStep({ files, template, onChoose, look, onLook, onBack, onContinue, onRemoveFile }: TTemplateStepProps) {
  const [isDialogOpen, setDialogOpen] = useState(false);
  const ids = { dialogTitle: useId(), legend: useId(), look: useId() };
  const shown = files.slice(0, 3);

  return (
    <div className="wizard-step">
      <section className="chosen-summary" aria-label="Chosen files">
        <ul role="list" className="chosen-summary__names">
          {shown.map(({ id, file }) => (
            <li key={id} title={file.name}>
              {file.name}
            </li>
          ))}
          {files.length > shown.length && <li className="chosen-summary__more">and {files.length - shown.length} more</li>}
        </ul>
        <div className="chosen-summary__foot">
          <span>
            {files.length} {files.length === 1 ? 'file' : 'files'} · {formatBytes(totalBytes(files))}
          </span>
          <button type="button" className="text-button text-button--accent" onClick={() => setDialogOpen(true)}>
            View Files
          </button>
        </div>
      </section>

      <fieldset className="template-choice">
        <legend id={ids.legend} className="wizard-label">
          Template
        </legend>
        <div className="template-choice__grid column-grid">
          {TEMPLATE_IDS.map((id) => {
            const info = TEMPLATES[id];
            return (
              <label key={id} className="template-card choice-tile" data-selected={template === id ? '' : undefined}>
                <input type="radio" name="template" value={id} checked={template === id} onChange={() => onChoose(id)} className="template-card__input" />
                <span className="template-card__frame" aria-hidden="true">
                  <span className="template-card__placeholder">
                    <info.Icon size={20} />
                  </span>
                  <DemoPreviewPicture className="template-card__picture" demoPath={TEMPLATE_CATALOGUE[id].demoPath} sizes={CARD_PICTURE_SIZES} lazy alt="" />
                </span>
                <span className="template-card__text">
                  <span className="template-card__name">
                    {info.name}
                    {id === 'universal' && <span className="tag tag--accent">Recommended</span>}
                  </span>
                  <span className="template-card__description">{info.description}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <section className="look-section" aria-labelledby={ids.look}>
        <h3 id={ids.look} className="wizard-label">
          Look
        </h3>
        <p className="look-section__lede">Starts as the template’s demo. Visitors see the site as you set it here.</p>
        <LookFields look={look} onChange={onLook} />
      </section>

      <WizardActions onBack={onBack} label="Continue" onContinue={onContinue} />

      <ModalDialog isOpen={isDialogOpen} onClose={() => setDialogOpen(false)} labelledBy={ids.dialogTitle} className="files-dialog">
        <div className="wizard-dialog__head">
          <h3 id={ids.dialogTitle} className="wizard-dialog__title">
            Your files
            <span className="wizard-dialog__count">
              {files.length} · {formatBytes(totalBytes(files))}
            </span>
          </h3>
          <button type="button" className="icon-button round-icon-button" aria-label="Close" onClick={() => setDialogOpen(false)} autoFocus>
            <CloseIcon size={20} />
          </button>
        </div>
        <div className="files-dialog__list">
          <FileList files={files} isDisabled={files.length <= 1} onRemove={onRemoveFile} registerRemoveButton={() => {}} />
        </div>
      </ModalDialog>
    </div>
  );
}
