/** The settings cards in one form: one Save sends what changed, one outcome says how it went. */
import { useState, type FormEvent } from 'react';
import { PlanLimitMessage } from '../../../billing/plan-limit-message.tsx';
import { updateManagedProject } from '../manage-api.ts';
import { isSitePasswordLongEnough, settingsFormOf, settingsUpdate, type TSettingsForm } from '../manage-forms.ts';
import { ContactCard } from './contact-card.tsx';
import { DetailsCard } from './details-card.tsx';
import { EngagementCard } from './engagement-card.tsx';
import { ExpiryCard } from './expiry-card.tsx';
import { LookCard } from './look-card.tsx';
import { NotificationsCard } from './notifications-card.tsx';
import { PasswordCard } from './password-card.tsx';
import { errorMessage, type TSaveState, type TSectionProps } from './settings-card.tsx';

/** Every setting of the site in one form: one Save sends what changed, one outcome says how it went. */
export function SettingsForm({ project, onApplied }: TSectionProps) {
  const [form, setForm] = useState(() => settingsFormOf(project));
  const [save, setSave] = useState<TSaveState>({ status: 'idle' });
  const accountEmail = project.accountNotificationEmail;
  // Notifications go to the account's confirmed address unless the site names its own.
  const [usesOwnAddress, setUsesOwnAddress] = useState(project.settings.notificationEmail !== '' || accountEmail === null);
  const set = <K extends keyof TSettingsForm>(key: K, value: TSettingsForm[K]) => {
    setForm((previous) => ({ ...previous, [key]: value }));
    setSave((previous) => (previous.status === 'saved' || previous.status === 'error' ? { status: 'idle' } : previous));
  };
  const checked = settingsUpdate(project, form, Date.now());
  const isChanged = 'error' in checked || Object.keys(checked.update).length > 0;
  // A new password waits until the server would take it (8 characters or more).
  const isPasswordTooShort = form.isPasswordOn && (form.password !== '' || !project.hasPassword) && !isSitePasswordLongEnough(form.password);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = settingsUpdate(project, form, Date.now());
    if ('error' in result) return setSave({ status: 'error', message: result.error });
    if (Object.keys(result.update).length === 0) return;
    setSave({ status: 'saving' });
    try {
      const next = await updateManagedProject(project.id, result.update);
      onApplied(next);
      // The form starts again from the site as it now is (a password is never shown back).
      setForm(settingsFormOf(next));
      setSave({ status: 'saved' });
    } catch (err) {
      setSave({ status: 'error', message: errorMessage(err) });
    }
  };

  return (
    <form className="manage-settings" onSubmit={(event) => void submit(event)} noValidate aria-label="Site settings">
      <DetailsCard form={form} set={set} />

      <LookCard form={form} set={set} />

      <EngagementCard form={form} set={set} />

      <NotificationsCard form={form} set={set} accountEmail={accountEmail} usesOwnAddress={usesOwnAddress} setUsesOwnAddress={setUsesOwnAddress} />

      <ContactCard form={form} set={set} />

      <PasswordCard project={project} form={form} set={set} />

      <ExpiryCard project={project} form={form} set={set} />

      <div className="manage-savebar">
        {save.status === 'error' && (
          <p className="manage-card__error" role="alert">
            <PlanLimitMessage message={save.message} />
          </p>
        )}
        <div className="manage-savebar__actions">
          <button type="submit" className="button button--primary" disabled={!isChanged || isPasswordTooShort || save.status === 'saving'}>
            {save.status === 'saving' ? 'Saving…' : 'Save changes'}
          </button>
          {isChanged && save.status !== 'saving' && (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setForm(settingsFormOf(project));
                setUsesOwnAddress(project.settings.notificationEmail !== '' || accountEmail === null);
                setSave({ status: 'idle' });
              }}
            >
              Discard changes
            </button>
          )}
          <span className="manage-savebar__status" role="status">
            {save.status === 'saved' ? 'Saved' : ''}
          </span>
        </div>
      </div>
    </form>
  );
}
