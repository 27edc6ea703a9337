/** When the site stops answering. */
import type { TManagedProject } from '@dropsite/shared';
import { SettingsCard, TextField, type TSettingsCardProps } from './settings-card.tsx';
import '../../../ui/field-with-button.css';

export function ExpiryCard({ project, form, set }: TSettingsCardProps & { project: TManagedProject }) {
  return (
    <SettingsCard
      title="Expiry"
      intro={
        project.expiresAt
          ? `Your site stops answering on ${new Date(project.expiresAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}.`
          : 'Your site has no expiry date.'
      }
    >
      <div className="manage-expiry field-with-button">
        <TextField label="Expires on" type="datetime-local" value={form.expiresAt} onChange={(value) => set('expiresAt', value)} />
        {form.expiresAt !== '' && (
          <button type="button" className="button button--secondary" onClick={() => set('expiresAt', '')}>
            No expiry
          </button>
        )}
      </div>
    </SettingsCard>
  );
}
