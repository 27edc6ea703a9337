/**
 * The Settings tab of /dashboard/projects/{id}: the owner edits the published site (details, look,
 * engagement switches, notifications, contact links, password, expiry) in one form with one Save,
 * manages its files (each change at once) and can delete it. Each change starts a build; its
 * progress shows until the change is live.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TBuildProgress, TManagedProject } from '@dropsite/shared';
import { ViewSiteLink } from '../../../ui/view-site-link.tsx';
import { fetchBuildProgress, fetchManagedProject } from '../manage-api.ts';
import { describeBuild } from '../manage-forms.ts';
import { DeleteSection } from './delete-section.tsx';
import { MoveSection } from './move-section.tsx';
import { FilesSection } from './files-section.tsx';
import { errorMessage } from './settings-card.tsx';
import { SettingsForm } from './settings-form.tsx';
import './manage-site.css';

const BUILD_POLL_MS = 1000;

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
      <MoveSection project={project} />
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
