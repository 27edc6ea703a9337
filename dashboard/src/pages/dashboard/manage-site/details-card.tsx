/** The site's title, description and author. */
import { SettingsCard, TextField, type TSettingsCardProps } from './settings-card.tsx';

export function DetailsCard({ form, set }: TSettingsCardProps) {
  return (
    <SettingsCard title="Site details" intro="The title, description and author shown at the top of your site.">
      <TextField label="Site title" value={form.title} maxLength={200} onChange={(title) => set('title', title)} />
      <TextField label="Description" value={form.description} multiline maxLength={2000} onChange={(description) => set('description', description)} />
      <TextField label="Author" value={form.authorName} maxLength={100} autoComplete="name" onChange={(authorName) => set('authorName', authorName)} />
    </SettingsCard>
  );
}
