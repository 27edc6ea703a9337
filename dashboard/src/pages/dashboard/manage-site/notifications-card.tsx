/** Whether the owner is emailed about visitors' activity, and at which address. */
import { AccountRecipient } from '../../../engagement/account-recipient.tsx';
import { notificationRecipientOf, notificationsBlockedReason } from '../../../engagement/notification-recipient.ts';
import { SettingsCard, SwitchField, TextField, type TSettingsCardProps } from './settings-card.tsx';

export function NotificationsCard({
  form,
  set,
  accountEmail,
  usesOwnAddress,
  setUsesOwnAddress,
}: TSettingsCardProps & {
  /** The account's confirmed address, null when it has none. */
  accountEmail: string | null;
  usesOwnAddress: boolean;
  setUsesOwnAddress: (usesOwnAddress: boolean) => void;
}) {
  const notificationsBlocked = notificationsBlockedReason(form.notificationEmail, accountEmail, accountEmail === null);
  const notificationsOn = form.enableNotifications && notificationRecipientOf(form.notificationEmail, accountEmail).kind !== 'none';
  return (
    <SettingsCard title="Notifications" intro="Email me when visitors favourite, comment or approve.">
      <SwitchField
        label="Send me notifications"
        isOn={notificationsOn}
        disabled={notificationsBlocked !== null}
        onChange={(on) => set('enableNotifications', on)}
        hint={notificationsBlocked ?? undefined}
      />
      {accountEmail !== null && !usesOwnAddress ? (
        <AccountRecipient accountEmail={accountEmail} block="manage-recipient" buttonClassName="dash-link-button" onUseOtherAddress={() => setUsesOwnAddress(true)} />
      ) : (
        <div className="manage-recipient">
          <TextField
            label="Notification email"
            type="email"
            autoComplete="email"
            value={form.notificationEmail}
            onChange={(email) => set('notificationEmail', email)}
            hint="Only you see this address; it never appears on your site. A new address gets a confirmation link first."
          />
          {accountEmail !== null && (
            <button
              type="button"
              className="dash-link-button"
              onClick={() => {
                setUsesOwnAddress(false);
                set('notificationEmail', '');
              }}
            >
              Use {accountEmail} instead
            </button>
          )}
        </div>
      )}
    </SettingsCard>
  );
}
