/** Whether visitors need a password, and a new one. */
import type { TManagedProject } from '@dropsite/shared';
import { SettingsCard, SwitchField, TextField, type TSettingsCardProps } from './settings-card.tsx';

export function PasswordCard({ project, form, set }: TSettingsCardProps & { project: TManagedProject }) {
  return (
    <SettingsCard
      title="Password"
      intro={
        project.hasPassword ? 'Visitors need the password to open this site. Changing it signs out everyone who entered the old one.' : 'Anyone with the link can open this site.'
      }
    >
      <SwitchField label="Require a password" isOn={form.isPasswordOn} onChange={(on) => set('isPasswordOn', on)} />
      {form.isPasswordOn && (
        <TextField
          label={project.hasPassword ? 'New password' : 'Password'}
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(password) => set('password', password)}
          hint={project.hasPassword ? 'At least 8 characters. Leave empty to keep the current one.' : 'At least 8 characters.'}
        />
      )}
    </SettingsCard>
  );
}
