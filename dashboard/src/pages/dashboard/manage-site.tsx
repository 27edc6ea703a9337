/**
 * The Settings tab of /dashboard/projects/{id}: the owner edits the published site (details, look,
 * engagement switches, notifications, contact links, password, expiry) in one form with one Save,
 * manages its files (each change at once) and can delete it. Each change starts a build; its
 * progress shows until the change is live.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { TEMPLATE_IDS, confirmsTitle, describeFileType, formatBytes, type TBuildProgress, type TManagedFile, type TManagedProject } from '@dropsite/shared';
import { ViewSiteLink } from '../../components/view-site-link.tsx';
import { queueToast } from '../../components/toast.tsx';
import { PlanLimitMessage } from '../billing/plan-limit-message.tsx';
import { TEMPLATES } from '../../wizard/template-step.tsx';
import { addManagedFiles, deleteManagedProject, fetchBuildProgress, fetchManagedProject, removeManagedFile, replaceManagedFile, updateManagedProject } from './manage-api.ts';
import { describeBuild, isSitePasswordLongEnough, settingsFormOf, settingsUpdate, type TSettingsForm } from './manage-forms.ts';
import { Switch } from '../../components/switch.tsx';
import { LookFields } from '../../components/look-fields.tsx';
import { notificationRecipientOf, notificationsBlockedReason } from '../../engagement/notification-recipient.ts';
import './manage-site.css';

const BUILD_POLL_MS = 1000;

type TSaveState = { status: 'idle' } | { status: 'saving' } | { status: 'saved' } | { status: 'error'; message: string };

const errorMessage = (err: unknown) => (err instanceof Error && err.message ? err.message : 'Something went wrong. Please try again.');

interface TManageProps {
  projectId: string;
  /** A change is live: the page's header and tabs read the site again. */
  onChanged: () => void;
}

/** Follows the newest build after a change until it is done, then tells the page. */
function useBuildFollower(projectId: string, onChanged: () => void) {
  const [build, setBuild] = useState<TBuildProgress | null>(null);
  const [following, setFollowing] = useState(false);
  const onChangedRef = useRef(onChanged);
  onChangedRef.current = onChanged;

  useEffect(() => {
    if (!following) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await fetchBuildProgress(projectId);
        if (cancelled) return;
        setBuild(next);
        if (!next || next.state === 'succeeded' || next.state === 'failed') {
          setFollowing(false);
          onChangedRef.current();
          return;
        }
      } catch {
        // A missed poll is tried again; the build goes on regardless.
      }
      if (!cancelled) timer = setTimeout(() => void poll(), BUILD_POLL_MS);
    };
    timer = setTimeout(() => void poll(), BUILD_POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [following, projectId]);

  const follow = useCallback((started: TBuildProgress | null) => {
    setBuild(started);
    setFollowing(true);
  }, []);
  return { build, following, follow };
}

export function ManageSite({ projectId, onChanged }: TManageProps) {
  const [project, setProject] = useState<TManagedProject | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setProject(await fetchManagedProject(projectId));
      setLoadError(null);
    } catch (err) {
      setLoadError(errorMessage(err));
    }
  }, [projectId]);

  // Once a build is done, the files' new thumbnails exist and the page's header reads the site again.
  const built = useCallback(() => {
    void load();
    onChanged();
  }, [load, onChanged]);
  const { build, following, follow } = useBuildFollower(projectId, built);

  useEffect(() => {
    void load();
  }, [load]);

  /** Every change answers the site as it now is, and its build has just been queued. */
  const applied = useCallback(
    (next: TManagedProject) => {
      setProject(next);
      follow(next.build);
    },
    [follow],
  );

  if (loadError && !project) {
    return (
      <div className="manage-load-error" role="alert">
        <p>Could not load the site’s settings: {loadError}</p>
        <button type="button" className="button button--secondary" onClick={() => void load()}>
          Try again
        </button>
      </div>
    );
  }
  if (!project) return <p className="dash-muted">Loading settings…</p>;

  return (
    <div className="manage">
      <BuildLine build={build} following={following} url={project.url} />
      <SettingsForm project={project} onApplied={applied} />
      <FilesSection project={project} onApplied={applied} />
      <DeleteSection project={project} />
    </div>
  );
}

export function BuildLine({ build, following, url }: { build: TBuildProgress | null; following: boolean; url: string }) {
  if (!build) return null;
  const percent = build.state === 'succeeded' ? 100 : Math.max(0, Math.min(100, Math.round(build.progress)));
  return (
    <div className="manage-build" data-state={build.state}>
      <p role="status" className="manage-build__text">
        {describeBuild(build)}
      </p>
      {following && (
        <div className="manage-build__bar" role="progressbar" aria-label="Site update progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <span style={{ width: `${percent}%` }} />
        </div>
      )}
      {!following && build.state === 'succeeded' && <ViewSiteLink className="manage-build__link" href={url} iconSize={14} />}
    </div>
  );
}

interface TSectionProps {
  project: TManagedProject;
  onApplied: (project: TManagedProject) => void;
}

/** One settings card: a heading, what it is for, and its fields or actions. */
function SettingsCard({ title, intro, children, tone }: { title: string; intro?: ReactNode; children: ReactNode; tone?: 'danger' }) {
  const headingId = useId();
  return (
    <section className="manage-card" aria-labelledby={headingId} data-tone={tone}>
      <div className="manage-card__intro">
        <h2 id={headingId} className="manage-card__title">
          {title}
        </h2>
        {intro && <p className="manage-card__lede">{intro}</p>}
      </div>
      <div className="manage-card__body">{children}</div>
    </section>
  );
}

function TextField({
  label,
  value,
  onChange,
  hint,
  type = 'text',
  multiline = false,
  maxLength,
  autoComplete = 'off',
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  type?: string;
  multiline?: boolean;
  maxLength?: number;
  autoComplete?: string;
  placeholder?: string;
}) {
  const id = useId();
  const hintId = useId();
  const common = {
    id,
    value,
    className: 'manage-input',
    maxLength,
    placeholder,
    'aria-describedby': hint ? hintId : undefined,
  };
  return (
    <div className="manage-field">
      <label htmlFor={id} className="manage-field__label">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete} onChange={(e) => onChange(e.target.value)} />
      )}
      {hint && (
        <p id={hintId} className="manage-field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A setting's switch beside its name (and what it does), the same switch as the upload wizard's. */
function SwitchField({
  label,
  isOn,
  onChange,
  hint,
  disabled = false,
}: {
  label: string;
  isOn: boolean;
  onChange: (isOn: boolean) => void;
  hint?: string | undefined;
  disabled?: boolean;
}) {
  const labelId = useId();
  const hintId = useId();
  return (
    <div className="manage-switch">
      <span className="manage-switch__text">
        <span id={labelId} className="manage-switch__label">
          {label}
        </span>
        {hint && (
          <span id={hintId} className="manage-field__hint">
            {hint}
          </span>
        )}
      </span>
      <Switch isOn={isOn} onChange={onChange} labelledBy={labelId} describedBy={hint ? hintId : undefined} disabled={disabled} />
    </div>
  );
}

const CONTACT_FIELDS = [
  { key: 'email', label: 'Contact email', type: 'email', placeholder: 'you@example.com' },
  { key: 'website', label: 'Website', type: 'url', placeholder: 'example.com' },
  { key: 'instagram', label: 'Instagram', type: 'url', placeholder: 'instagram.com/yourname' },
  { key: 'twitter', label: 'X (Twitter)', type: 'url', placeholder: 'x.com/yourname' },
  { key: 'linkedin', label: 'LinkedIn', type: 'url', placeholder: 'linkedin.com/in/yourname' },
  { key: 'github', label: 'GitHub', type: 'url', placeholder: 'github.com/yourname' },
] as const;

/** Every setting of the site in one form: one Save sends what changed, one outcome says how it went. */
export function SettingsForm({ project, onApplied }: TSectionProps) {
  const [form, setForm] = useState(() => settingsFormOf(project));
  const [save, setSave] = useState<TSaveState>({ status: 'idle' });
  const ids = { template: useId() };
  const accountEmail = project.accountNotificationEmail;
  // Notifications go to the account's confirmed address unless the site names its own.
  const [usesOwnAddress, setUsesOwnAddress] = useState(project.settings.notificationEmail !== '' || accountEmail === null);
  const set = <K extends keyof TSettingsForm>(key: K, value: TSettingsForm[K]) => {
    setForm((previous) => ({ ...previous, [key]: value }));
    setSave((previous) => (previous.status === 'saved' || previous.status === 'error' ? { status: 'idle' } : previous));
  };
  const checked = settingsUpdate(project, form, Date.now());
  const isChanged = 'error' in checked || Object.keys(checked.update).length > 0;
  const notificationsBlocked = notificationsBlockedReason(form.notificationEmail, accountEmail, accountEmail === null);
  const notificationsOn = form.enableNotifications && notificationRecipientOf(form.notificationEmail, accountEmail).kind !== 'none';
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
      <SettingsCard title="Site details" intro="The title, description and author shown at the top of your site.">
        <TextField label="Site title" value={form.title} maxLength={200} onChange={(title) => set('title', title)} />
        <TextField label="Description" value={form.description} multiline maxLength={2000} onChange={(description) => set('description', description)} />
        <TextField label="Author" value={form.authorName} maxLength={100} autoComplete="name" onChange={(authorName) => set('authorName', authorName)} />
      </SettingsCard>

      <SettingsCard title="Look" intro="The template arranges your files; the style, light or dark and the hero layout are how every visitor sees the site.">
        <div className="manage-field">
          <label htmlFor={ids.template} className="manage-field__label">
            Template
          </label>
          <select id={ids.template} className="manage-input" value={form.template} onChange={(e) => set('template', e.target.value as TSettingsForm['template'])}>
            {TEMPLATE_IDS.map((id) => (
              <option key={id} value={id}>
                {TEMPLATES[id].name}
              </option>
            ))}
          </select>
        </div>
        <LookFields look={form.look} onChange={(change) => set('look', { ...form.look, ...change })} />
      </SettingsCard>

      <SettingsCard title="Engagement" intro="What visitors can do on your site.">
        <SwitchField label="Favourites" hint="Visitors heart the files they like best." isOn={form.enableFavorites} onChange={(on) => set('enableFavorites', on)} />
        <SwitchField label="Comments" hint="Feedback right beside each file." isOn={form.enableComments} onChange={(on) => set('enableComments', on)} />
        <SwitchField label="Approvals" hint="Clients approve or reject each file." isOn={form.enableApprovals} onChange={(on) => set('enableApprovals', on)} />
        <SwitchField label="Analytics" hint="See views, downloads and activity." isOn={form.enableAnalytics} onChange={(on) => set('enableAnalytics', on)} />
      </SettingsCard>

      <SettingsCard title="Notifications" intro="Email me when visitors favourite, comment or approve.">
        <SwitchField
          label="Send me notifications"
          isOn={notificationsOn}
          disabled={notificationsBlocked !== null}
          onChange={(on) => set('enableNotifications', on)}
          hint={notificationsBlocked ?? undefined}
        />
        {accountEmail !== null && !usesOwnAddress ? (
          <div className="manage-recipient" data-testid="notification-recipient">
            <p className="manage-recipient__text">
              Notifications go to <strong>{accountEmail}</strong>, your account’s email.
            </p>
            <button type="button" className="dash-link-button" onClick={() => setUsesOwnAddress(true)}>
              Use a different address
            </button>
          </div>
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

      <SettingsCard title="Contact links" intro="Shown in your site’s footer for visitors to reach you. Leave a field empty to hide it.">
        <div className="manage-grid">
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

      <SettingsCard
        title="Expiry"
        intro={
          project.expiresAt
            ? `Your site stops answering on ${new Date(project.expiresAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}.`
            : 'Your site has no expiry date.'
        }
      >
        <div className="manage-expiry">
          <TextField label="Expires on" type="datetime-local" value={form.expiresAt} onChange={(value) => set('expiresAt', value)} />
          {form.expiresAt !== '' && (
            <button type="button" className="button button--secondary" onClick={() => set('expiresAt', '')}>
              No expiry
            </button>
          )}
        </div>
      </SettingsCard>

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

export function FilesSection({ project, onApplied }: TSectionProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const addInput = useRef<HTMLInputElement>(null);

  const act = async (key: string, action: () => Promise<TManagedProject>) => {
    setBusy(key);
    setError(null);
    try {
      onApplied(await action());
      setConfirming(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <SettingsCard title="Files" intro="Add files, replace one with a new version (its favourites, comments and approvals stay), or remove one. The link stays the same.">
      <ul className="manage-files" role="list">
        {project.files.map((file) => (
          <FileRow
            key={file.id}
            file={file}
            busy={busy}
            canRemove={project.files.length > 1}
            confirming={confirming === file.id}
            onAskRemove={() => setConfirming(file.id)}
            onCancelRemove={() => setConfirming(null)}
            onRemove={() => void act(`remove-${file.id}`, () => removeManagedFile(project.id, file.id))}
            onReplace={(picked) => void act(`replace-${file.id}`, () => replaceManagedFile(project.id, file.id, picked))}
          />
        ))}
      </ul>
      {error && (
        <p className="manage-card__error" role="alert">
          <PlanLimitMessage message={error} />
        </p>
      )}
      <div className="manage-card__actions">
        <input
          ref={addInput}
          type="file"
          multiple
          hidden
          data-testid="add-files-input"
          onChange={(e) => {
            const picked = [...(e.target.files ?? [])];
            e.target.value = '';
            if (picked.length > 0) void act('add', () => addManagedFiles(project.id, picked));
          }}
        />
        <button type="button" className="button button--secondary" disabled={busy !== null} onClick={() => addInput.current?.click()}>
          {busy === 'add' ? 'Uploading…' : 'Add files'}
        </button>
      </div>
    </SettingsCard>
  );
}

/** What stands in for a thumbnail not made yet: the file's extension ('JPG'), else 'FILE'. */
function fileBadge(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toUpperCase() : '';
  return extension && extension.length <= 4 ? extension : 'FILE';
}

export function FileRow({
  file,
  busy,
  canRemove,
  confirming,
  onAskRemove,
  onCancelRemove,
  onRemove,
  onReplace,
}: {
  file: TManagedFile;
  busy: string | null;
  canRemove: boolean;
  confirming: boolean;
  onAskRemove: () => void;
  onCancelRemove: () => void;
  onRemove: () => void;
  onReplace: (file: File) => void;
}) {
  const replaceInput = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  return (
    <li className="manage-file" data-file-id={file.id}>
      <div className="manage-file__thumb ui-tile" aria-hidden="true">
        {file.thumbnailUrl ? <img src={file.thumbnailUrl} alt="" loading="lazy" width={48} height={48} /> : <span>{fileBadge(file.name)}</span>}
      </div>
      <div className="manage-file__text">
        <span className="manage-file__name">{file.name}</span>
        <span className="manage-file__meta">
          {describeFileType(file.name, file.type)} · {formatBytes(file.size)}
          {file.version > 1 && <span className="manage-file__version">Version {file.version}</span>}
        </span>
      </div>
      {confirming ? (
        <div className="manage-file__confirm" role="group" aria-label={`Remove ${file.name}?`}>
          <span className="manage-file__question">Remove this file? Its favourites, comments and approvals go with it.</span>
          <button ref={confirmRef} type="button" className="button button--danger" disabled={busy !== null} onClick={onRemove}>
            {busy === `remove-${file.id}` ? 'Removing…' : 'Remove file'}
          </button>
          <button type="button" className="button button--secondary" onClick={onCancelRemove}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="manage-file__actions">
          <input
            ref={replaceInput}
            type="file"
            hidden
            data-testid={`replace-input-${file.id}`}
            onChange={(e) => {
              const picked = e.target.files?.[0];
              e.target.value = '';
              if (picked) onReplace(picked);
            }}
          />
          <button type="button" className="button button--secondary" disabled={busy !== null} onClick={() => replaceInput.current?.click()} aria-label={`Replace ${file.name}`}>
            {busy === `replace-${file.id}` ? 'Uploading…' : 'Replace'}
          </button>
          {canRemove && (
            <button type="button" className="button button--secondary" disabled={busy !== null} onClick={onAskRemove} aria-label={`Remove ${file.name}`}>
              Remove
            </button>
          )}
        </div>
      )}
    </li>
  );
}

export function DeleteSection({ project }: { project: TManagedProject }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [save, setSave] = useState<TSaveState>({ status: 'idle' });
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  // The title as typed: another dash or extra spaces still confirm it (the server compares the same way).
  const matches = confirmsTitle(typed, project.title);
  return (
    <SettingsCard title="Delete site" intro="The link stops working at once, and the files, comments and analytics are removed for good." tone="danger">
      {!open ? (
        <div className="manage-card__actions">
          <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
            Delete site…
          </button>
        </div>
      ) : (
        <form
          className="manage-delete"
          onSubmit={(event) => {
            event.preventDefault();
            if (!matches) return;
            setSave({ status: 'saving' });
            deleteManagedProject(project.id, typed).then(
              () => {
                queueToast('Site deleted');
                window.location.assign('/dashboard');
              },
              (err: unknown) => setSave({ status: 'error', message: errorMessage(err) }),
            );
          }}
        >
          <label htmlFor={inputId} className="manage-field__label">
            Type <strong>{project.title}</strong> to confirm
          </label>
          <input ref={inputRef} id={inputId} className="manage-input" value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
          {save.status === 'error' && (
            <p className="manage-card__error" role="alert">
              {save.message}
            </p>
          )}
          <div className="manage-card__actions">
            <button type="submit" className="button button--danger" disabled={!matches || save.status === 'saving'}>
              {save.status === 'saving' ? 'Deleting…' : 'Delete this site'}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setOpen(false);
                setTyped('');
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
    </SettingsCard>
  );
}
