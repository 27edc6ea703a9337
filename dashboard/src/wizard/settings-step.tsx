import { useEffect, useId, useState, type ReactElement } from 'react';
import { isProFeatureSetting, type TSiteSettings } from '@dropsite/shared';
import { ChartIcon, HeartIcon, MessageIcon, BellIcon, CheckCircleIcon } from '../ui/icons.tsx';
import { Switch } from '../ui/switch.tsx';
import { useSession } from '../auth/session-store.ts';
import { notificationRecipientOf, notificationsBlockedReason } from '../engagement/notification-recipient.ts';
import { WizardActions } from './wizard-actions.tsx';
import { AccountRecipient } from '../engagement/account-recipient.tsx';
import '../ui/label-text.css';

type TToggleKey = 'enableFavorites' | 'enableComments' | 'enableApprovals' | 'enableAnalytics' | 'enableNotifications';

/** Each switch with its plan label: Pro for the catalogue's Pro features (the ones the server refuses on Free), Free for the rest. */
const FEATURES: { key: TToggleKey; name: string; description: string; plan: 'Free' | 'Pro'; Icon: (p: { size?: number }) => ReactElement }[] = (
  [
    { key: 'enableFavorites', name: 'Favorites', description: 'Visitors heart the files they like best.', Icon: HeartIcon },
    { key: 'enableComments', name: 'Comments', description: 'Feedback right beside each file.', Icon: MessageIcon },
    { key: 'enableApprovals', name: 'Approvals', description: 'Clients approve or reject each file.', Icon: CheckCircleIcon },
    { key: 'enableAnalytics', name: 'Analytics', description: 'See views, downloads and activity.', Icon: ChartIcon },
    { key: 'enableNotifications', name: 'Notifications', description: 'An email when a visitor engages.', Icon: BellIcon },
  ] as const
).map((feature) => ({ ...feature, plan: isProFeatureSetting(feature.key) ? 'Pro' : 'Free' }));

interface TSettingsStepProps {
  settings: TSiteSettings;
  onChange: (settings: Partial<TSiteSettings>) => void;
  onBack: () => void;
  onContinue: () => void;
}

/** Step 4: 'Client Engagement Features'. */
export function SettingsStep({ settings, onChange, onBack, onContinue }: TSettingsStepProps) {
  const headingId = useId();
  const emailId = useId();
  const session = useSession();
  // Signed in with a confirmed email: that address is where notifications go unless another is given.
  const accountEmail = session.status === 'signed-in' && session.creator.emailVerified ? session.creator.email : null;
  const accountUnconfirmed = session.status === 'signed-in' && !session.creator.emailVerified;
  const [usesOwnAddress, setUsesOwnAddress] = useState(settings.notificationEmail !== '');
  const showsEmailField = accountEmail === null || usesOwnAddress;
  const siteEmail = showsEmailField ? settings.notificationEmail : '';
  const blocked = notificationsBlockedReason(siteEmail, accountEmail, accountUnconfirmed);
  const recipient = notificationRecipientOf(siteEmail, accountEmail);
  // The switch is never on with no one to receive the messages (the server refuses that too).
  const notificationsOn = settings.enableNotifications && recipient.kind !== 'none';
  useEffect(() => {
    if (settings.enableNotifications && recipient.kind === 'none' && session.status !== 'loading') onChange({ enableNotifications: false });
  }, [settings.enableNotifications, recipient.kind, session.status, onChange]);
  const setEmail = (notificationEmail: string) => {
    const next = notificationRecipientOf(notificationEmail, accountEmail);
    onChange(next.kind === 'none' ? { notificationEmail, enableNotifications: false } : { notificationEmail });
  };
  return (
    <div className="wizard-step">
      <section aria-labelledby={headingId}>
        <h3 id={headingId} className="wizard-subheading">
          Client Engagement Features
        </h3>
        <ul role="list" className="feature-list">
          {FEATURES.map(({ key, name, description, plan, Icon }) => {
            const isNotifications = key === 'enableNotifications';
            const isOn = isNotifications ? notificationsOn : settings[key];
            const isBlocked = isNotifications && blocked !== null;
            const labelId = `${headingId}-${key}`;
            return (
              <li key={key} className="feature-row" data-on={isOn ? '' : undefined}>
                <span className="feature-row__icon ui-tile" aria-hidden="true">
                  <Icon size={18} />
                </span>
                <span className="feature-row__text">
                  <span className="feature-row__name label-text" id={labelId}>
                    {name}
                    <span className={plan === 'Pro' ? 'tag tag--pro' : 'tag tag--free'}>{plan}</span>
                  </span>
                  <span className="feature-row__description hint-text" id={`${labelId}-d`}>
                    {description}
                    {isBlocked && <span className="feature-row__reason"> {blocked}</span>}
                  </span>
                </span>
                <Switch isOn={isOn} labelledBy={labelId} describedBy={`${labelId}-d`} disabled={isBlocked} onChange={(next) => onChange({ [key]: next })} />
              </li>
            );
          })}
        </ul>
        {accountEmail !== null && !usesOwnAddress ? (
          <AccountRecipient
            accountEmail={accountEmail}
            block="notification-recipient"
            buttonClassName="notification-recipient__switch"
            onUseOtherAddress={() => setUsesOwnAddress(true)}
          />
        ) : (
          <div className="field notification-email">
            <label className="field__label" htmlFor={emailId}>
              Notification email
            </label>
            <input
              id={emailId}
              className="field__input"
              type="email"
              autoComplete="email"
              inputMode="email"
              maxLength={320}
              placeholder="you@studio.com"
              value={settings.notificationEmail}
              aria-describedby={`${emailId}-hint`}
              onChange={(e) => setEmail(e.target.value)}
            />
            <p className="field__hint" id={`${emailId}-hint`}>
              We’ll send a confirmation link first. Nothing else goes to this address until it is confirmed.
            </p>
            {accountEmail !== null && (
              <button
                type="button"
                className="notification-recipient__switch"
                onClick={() => {
                  setUsesOwnAddress(false);
                  onChange({ notificationEmail: '' });
                }}
              >
                Use {accountEmail} instead
              </button>
            )}
          </div>
        )}
      </section>

      <WizardActions onBack={onBack} label="Preview Site" onContinue={onContinue} />
    </div>
  );
}
