/** The contact links of the site's footer. */
import { SettingsCard, TextField, type TSettingsCardProps } from './settings-card.tsx';
import '../../../ui/column-grid.css';

const CONTACT_FIELDS = [
  { key: 'email', label: 'Contact email', type: 'email', placeholder: 'you@example.com' },
  { key: 'website', label: 'Website', type: 'url', placeholder: 'example.com' },
  { key: 'instagram', label: 'Instagram', type: 'url', placeholder: 'instagram.com/yourname' },
  { key: 'twitter', label: 'X (Twitter)', type: 'url', placeholder: 'x.com/yourname' },
  { key: 'linkedin', label: 'LinkedIn', type: 'url', placeholder: 'linkedin.com/in/yourname' },
  { key: 'github', label: 'GitHub', type: 'url', placeholder: 'github.com/yourname' },
] as const;

export function ContactCard({ form, set }: TSettingsCardProps) {
  return (
    <SettingsCard title="Contact links" intro="Shown in your site’s footer for visitors to reach you. Leave a field empty to hide it.">
      <div className="manage-grid column-grid">
        {CONTACT_FIELDS.map(({ key, label, type, placeholder }) => (
          <TextField
            key={key}
            label={label}
            type={type}
            placeholder={placeholder}
            value={form.contactInfo[key]}
            onChange={(value) => set('contactInfo', { ...form.contactInfo, [key]: value })}
          />
        ))}
      </div>
    </SettingsCard>
  );
}
