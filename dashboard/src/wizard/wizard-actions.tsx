/** The foot of a wizard step: Back, and the button that moves on. */
import { ArrowLeftIcon, ArrowRightIcon } from '../ui/icons.tsx';

interface IWizardActionsProps {
  onBack: () => void;
  /** What moving on does, e.g. 'Preview Site'. */
  label: string;
  /** Without it, the button submits the step's form. */
  onContinue?: () => void;
  disabled?: boolean;
}

export function WizardActions({ onBack, label, onContinue, disabled }: IWizardActionsProps) {
  return (
    <div className="wizard-actions">
      <button type="button" className="button button--secondary" onClick={onBack}>
        <ArrowLeftIcon size={18} />
        Back
      </button>
      <button type={onContinue ? 'button' : 'submit'} className="button button--primary" onClick={onContinue} disabled={disabled}>
        {label}
        <ArrowRightIcon size={18} />
      </button>
    </div>
  );
}
