import { useId, useState, type ReactElement } from 'react';
import { TEMPLATE_CATALOGUE, TEMPLATE_IDS, formatBytes, type TTemplateId } from '@dropsite/shared';
import { ArrowRightIcon, CloseIcon, ImageIcon } from '../components/icons.tsx';
import { totalBytes, type TChosenFile } from '../upload/chosen-files.ts';
import { FileList } from '../upload/file-list.tsx';
import { ModalDialog } from './modal-dialog.tsx';
import { ArrowLeftIcon, CalendarIcon, GridIcon, PresentationIcon, UserIcon } from './wizard-icons.tsx';

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

interface TTemplateStepProps {
  files: readonly TChosenFile[];
  template: TTemplateId;
  onChoose: (template: TTemplateId) => void;
  onBack: () => void;
  onContinue: () => void;
  onRemoveFile: (id: string) => void;
}

/** Step 2: the chosen files at a glance and the template. */
export function TemplateStep({ files, template, onChoose, onBack, onContinue, onRemoveFile }: TTemplateStepProps) {
  const [isDialogOpen, setDialogOpen] = useState(false);
  const ids = { dialogTitle: useId(), legend: useId() };
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
        <div className="template-choice__grid">
          {TEMPLATE_IDS.map((id) => {
            const info = TEMPLATES[id];
            return (
              <label key={id} className="template-card" data-selected={template === id ? '' : undefined}>
                <input type="radio" name="template" value={id} checked={template === id} onChange={() => onChoose(id)} className="template-card__input" />
                <span className="template-card__icon" aria-hidden="true">
                  <info.Icon size={20} />
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

      <div className="wizard-actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          <ArrowLeftIcon size={18} />
          Back
        </button>
        <button type="button" className="button button--primary" onClick={onContinue}>
          Continue
          <ArrowRightIcon size={18} />
        </button>
      </div>

      <ModalDialog isOpen={isDialogOpen} onClose={() => setDialogOpen(false)} labelledBy={ids.dialogTitle} className="files-dialog">
        <div className="wizard-dialog__head">
          <h3 id={ids.dialogTitle} className="wizard-dialog__title">
            Your files
            <span className="wizard-dialog__count">
              {files.length} · {formatBytes(totalBytes(files))}
            </span>
          </h3>
          <button type="button" className="icon-button" aria-label="Close" onClick={() => setDialogOpen(false)} autoFocus>
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
