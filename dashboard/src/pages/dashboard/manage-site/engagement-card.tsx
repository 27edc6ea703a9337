/** What visitors can do on the site: favourites, comments, approvals, analytics. */
import { SettingsCard, SwitchField, type TSettingsCardProps } from './settings-card.tsx';

export function EngagementCard({ form, set }: TSettingsCardProps) {
  return (
    <SettingsCard title="Engagement" intro="What visitors can do on your site.">
      <SwitchField label="Favourites" hint="Visitors heart the files they like best." isOn={form.enableFavorites} onChange={(on) => set('enableFavorites', on)} />
      <SwitchField label="Comments" hint="Feedback right beside each file." isOn={form.enableComments} onChange={(on) => set('enableComments', on)} />
      <SwitchField label="Approvals" hint="Clients approve or reject each file." isOn={form.enableApprovals} onChange={(on) => set('enableApprovals', on)} />
      <SwitchField label="Analytics" hint="See views, downloads and activity." isOn={form.enableAnalytics} onChange={(on) => set('enableAnalytics', on)} />
    </SettingsCard>
  );
}
