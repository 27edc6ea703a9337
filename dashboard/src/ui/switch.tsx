/**
 * The on/off switch of a setting (role 'switch'), the same in the upload wizard and in a site's
 * settings: named by the element `labelledBy` points at (or `label`), described by `describedBy`.
 */
import { CheckIcon } from './icons.tsx';
import './switch.css';

interface TSwitchProps {
  isOn: boolean;
  onChange: (isOn: boolean) => void;
  /** The id of the element that names the switch; or `label` when nothing on the page does. */
  labelledBy?: string;
  label?: string;
  describedBy?: string;
  id?: string;
  /** Off and not operable, e.g. while no one could receive what it turns on. */
  disabled?: boolean;
}

export function Switch({ isOn, onChange, labelledBy, label, describedBy, id, disabled = false }: TSwitchProps) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={isOn}
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : label}
      aria-describedby={describedBy}
      className="switch"
      disabled={disabled}
      onClick={() => onChange(!isOn)}
    >
      <span className="switch__thumb">{isOn && <CheckIcon size={12} />}</span>
    </button>
  );
}
