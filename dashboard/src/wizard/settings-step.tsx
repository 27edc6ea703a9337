import { useId, type ReactElement } from 'react';
import { isProFeatureSetting, type TSiteSettings } from '@dropsite/shared';
import { ArrowRightIcon, ChartIcon, HeartIcon, MessageIcon } from '../components/icons.tsx';
import { Switch } from '../components/switch.tsx';
import { ArrowLeftIcon, BellIcon, CheckCircleIcon } from './wizard-icons.tsx';

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
  return (
    <div className="wizard-step">
      <section aria-labelledby={headingId}>
        <h3 id={headingId} className="wizard-subheading">
          Client Engagement Features
        </h3>
        <ul role="list" className="feature-list">
          {FEATURES.map(({ key, name, description, plan, Icon }) => {
            const isOn = settings[key];
            const labelId = `${headingId}-${key}`;
            return (
              <li key={key} className="feature-row" data-on={isOn ? '' : undefined}>
                <span className="feature-row__icon" aria-hidden="true">
                  <Icon size={18} />
                </span>
                <span className="feature-row__text">
                  <span className="feature-row__name" id={labelId}>
                    {name}
                    <span className={plan === 'Pro' ? 'tag tag--pro' : 'tag tag--free'}>{plan}</span>
                  </span>
                  <span className="feature-row__description" id={`${labelId}-d`}>
                    {description}
                  </span>
                </span>
                <Switch isOn={isOn} labelledBy={labelId} describedBy={`${labelId}-d`} onChange={(next) => onChange({ [key]: next })} />
              </li>
            );
          })}
        </ul>
        {settings.enableNotifications && (
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
              onChange={(e) => onChange({ notificationEmail: e.target.value })}
            />
            <p className="field__hint" id={`${emailId}-hint`}>
              We’ll send a confirmation link first. Nothing else goes to this address until it is confirmed.
            </p>
          </div>
        )}
      </section>

      <div className="wizard-actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          <ArrowLeftIcon size={18} />
          Back
        </button>
        <button type="button" className="button button--primary" onClick={onContinue}>
          Preview Site
          <ArrowRightIcon size={18} />
        </button>
      </div>
    </div>
  );
}
