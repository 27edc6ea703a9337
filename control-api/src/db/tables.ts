/**
 * The data model of both specifications, as kysely table types.
 * Portable across SQLite and PostgreSQL: ids are random text, times are epoch
 * milliseconds (bigint), flags are 0/1 integers and structured values are JSON text.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { TAuditEventType, TWorkspaceRole } from '@dropsite/shared';

export interface CreatorsTable {
  id: string;
  email: string;
  name: string;
  avatar_url: string;
  external_user_id: string | null;
  password_hash: string | null;
  created_at: number;
  updated_at: number;
  /** When the account's address was proven (a verification or sign-in link); null until then. */
  email_verified_at: number | null;
}

/** Signed-in creator sessions: only the SHA-256 of the secret is stored. */
export interface AuthSessionsTable {
  id: string;
  creator_id: string;
  secret_hash: string;
  created_at: number;
  expires_at: number;
  last_used_at: Generated<number>;
  user_agent: string | null;
  /** When an emailed link (sign-in, reset, undone address change) opened this session; null for a password or sign-up. */
  link_signed_in_at: Generated<number | null>;
  /** The workspace this session's dashboard shows; null for the account's personal workspace. Membership is checked on every request. */
  current_workspace_id: Generated<string | null>;
}

export type TAccountTokenPurpose = 'verify_email' | 'password_reset' | 'sign_in_link' | 'email_change_undo';

/** One-time links mailed to a creator (verification, reset, sign-in): only the SHA-256 of the token is stored. */
export interface AccountTokensTable {
  id: string;
  token_hash: string;
  purpose: TAccountTokenPurpose;
  /** The account it acts on; null for a sign-in link to an address without an account yet. */
  creator_id: string | null;
  /** The address the link was sent to (for an email change, the new address; for its undo link, the old one it restores). */
  email: string;
  /** A sign-in link from the email modal: the anonymous session whose sites it claims. */
  anonymous_session_id: string | null;
  /** Path to go back to after signing in. */
  return_to: string | null;
  /** A sign-up's link: the name the account is made with on first use (null on every other link). */
  sign_up_name: string | null;
  /** A sign-up's link: the argon2id hash of the password the account is made with on first use. */
  sign_up_password_hash: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Creators without an account, identified by a server-issued secret token. */
export interface AnonymousSessionsTable {
  id: string;
  secret_hash: string;
  created_at: number;
  expires_at: number;
  claimed_by: string | null;
  claimed_at: number | null;
}

export interface VisitorsTable {
  id: string;
  created_at: number;
  /** The name the visitor gave (trimmed, at most VISITOR_NAME_MAX_CHARS); null until they give one. */
  display_name: Generated<string | null>;
  /** The address the visitor chose to show the creators whose sites they engage with; null for none. */
  email: Generated<string | null>;
}

export type TSiteStatus = 'building' | 'live' | 'failed';

export interface ProjectsTable {
  id: string;
  slug: string;
  title: string;
  description: string;
  sub_line: string;
  tag_line: string;
  author_name: string;
  template: string;
  /** `{style}-{light|dark}`: the site's visual style and its pinned variant (light when the mode is automatic). */
  theme: string;
  /** The hero layout the owner chose (one of HERO_LAYOUTS); null for the template's default. */
  hero_layout: string | null;
  /** 'auto', 'light' or 'dark'; null for sites saved before it (see storedSiteLook). */
  color_mode: string | null;
  /** 1 when visitors get a light/dark toggle. */
  visitor_mode_toggle: Generated<number>;
  /** JSON of TSiteSettings. */
  settings: string;
  /** JSON of TContactInfo. */
  contact_info: string;
  password_hash: string | null;
  /** Bumped whenever the password changes, so earlier unlocks stop working. */
  password_version: number;
  expires_at: number | null;
  owner_creator_id: string | null;
  /** The workspace that owns the site; null while it is an anonymous creator's (until claimed). */
  workspace_id: Generated<string | null>;
  anonymous_session_id: string | null;
  status: TSiteStatus;
  /** Incremented on every change that needs a rebuild; builds are per version. */
  version: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** When an operator took the site down (it then also counts as deleted: unreachable everywhere); null otherwise. */
  taken_down_at: number | null;
  /** Why it was taken down, as the operator recorded it. */
  takedown_reason: string | null;
}

export interface FilesTable {
  id: string;
  project_id: string;
  name: string;
  type: string;
  size: number;
  storage_key: string;
  sha256: string;
  kind: string;
  /** JSON of TDerivedMetadata once the builder has derived it, else '{}'. */
  metadata: string;
  position: number;
  created_at: number;
  /** 1 for the bytes first published, bumped each time the creator replaces them. */
  version: Generated<number>;
  /** When the current bytes replaced earlier ones; null for the first version. */
  replaced_at: number | null;
  /** The folder the creator dropped the file in (its last folder name, cleaned); null for none. Kept when the bytes are replaced. */
  group_name: Generated<string | null>;
}

/** The columns of what a visitor leaves on a file (a favourite, a comment, an approval). */
interface VisitorEntryColumns {
  id: string;
  project_id: string;
  file_id: string;
  visitor_id: string;
  user_name: string;
  /** The address the visitor gave when this was made (an approval: last changed); null for none (and on the creator's replies). */
  user_email: Generated<string | null>;
  created_at: number;
  /** The file's version this was made on; null while that is the file's current version. */
  file_version: number | null;
}

export interface FavoritesTable extends VisitorEntryColumns {}

export interface CommentsTable extends VisitorEntryColumns {
  parent_id: string | null;
  body: string;
  /** Set on a reply the site's creator wrote from the dashboard (its visitor_id is then ''). */
  creator_id: string | null;
}

export interface ApprovalsTable extends VisitorEntryColumns {
  status: 'pending' | 'approved' | 'rejected';
  updated_at: number;
}

export interface AnalyticsEventsTable {
  id: string;
  project_id: string;
  file_id: string | null;
  visitor_id: string | null;
  type: string;
  details: string;
  created_at: number;
}

/**
 * Views, downloads and distinct visitors per site, scope ('' for the whole site, else a file id) and
 * UTC day (days since the epoch), kept as events are written, so the panel never scans the events.
 */
export interface AnalyticsDailyTable {
  project_id: string;
  scope: string;
  day: number;
  views: number;
  downloads: number;
  unique_visitors: number;
}

/** All-time views and downloads per site and scope, kept with the daily rows (lists of many sites read one row each). */
export interface AnalyticsTotalsTable {
  project_id: string;
  scope: string;
  views: number;
  downloads: number;
  /** Distinct visitors ever (the rows of analytics_visitors). */
  unique_visitors: Generated<number>;
}

/** One row per site, scope, day and visitor seen that day (what makes a day's visitors exact). */
export interface AnalyticsVisitorDaysTable {
  project_id: string;
  scope: string;
  day: number;
  visitor_id: string;
}

/** One row per site, scope and visitor, with the last day they were seen (all-time and trailing-range distinct visitors). */
export interface AnalyticsVisitorsTable {
  project_id: string;
  scope: string;
  visitor_id: string;
  last_day: number;
}

export interface EmailCollectionsTable {
  id: string;
  email: string;
  trigger: string;
  project_id: string | null;
  anonymous_session_id: string | null;
  created_at: number;
}

/** A notification address per creator and its confirmation state (only confirmed addresses get notifications). */
export interface EmailAddressesTable {
  id: string;
  email: string;
  owner_key: string;
  status: 'pending' | 'confirmed' | 'unsubscribed';
  token_hash: string | null;
  token_expires_at: number | null;
  confirm_requested_at: number | null;
  confirm_sent_at: number | null;
  confirm_attempts: Generated<number>;
  confirmed_at: number | null;
  unsubscribed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Distinct addresses one client address asked us to write to, per day. */
export interface EmailRecipientRequestsTable {
  requester: string;
  day: number;
  email: string;
  created_at: number;
}

export interface NotificationsTable {
  id: string;
  project_id: string | null;
  creator_id: string | null;
  anonymous_session_id: string | null;
  type: string;
  message: string;
  cta_text: string;
  urgency_level: 'high' | 'medium' | 'low';
  channel: 'in_app' | 'email' | 'slack';
  read_at: number | null;
  sent_at: number | null;
  created_at: number;
  /** Failed delivery attempts (email, slack); given up after a few. */
  attempts: Generated<number>;
  last_error: string | null;
}

/** Server-side secrets, e.g. the unlock-cookie key when SESSION_SECRET is not configured. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

/** Product analytics events of the email modal (spec 9), not shown to creators. */
export interface ProductEventsTable {
  id: string;
  name: string;
  trigger: string | null;
  project_id: string | null;
  visitor_id: string | null;
  anonymous_session_id: string | null;
  created_at: number;
}

export interface SubscriptionsTable {
  id: string;
  /** The workspace the plan is for (a personal workspace's id is its account's). */
  workspace_id: string;
  plan_id: string;
  status: 'active' | 'cancelled' | 'past_due' | 'trialing';
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  current_period_end: number | null;
  /** Created time of the newest Stripe event applied, so older events never win. */
  last_event_at: number;
  created_at: number;
  updated_at: number;
  billing_interval: 'monthly' | 'yearly' | null;
  /** 1 when cancelled in the portal: the plan stays until current_period_end. */
  cancel_at_period_end: Generated<number>;
  trial_end: number | null;
  /** When the creator's one trial started; null while they never had one. */
  trial_used_at: number | null;
  /** past_due: the paid plan's limits hold until then. */
  grace_period_end: number | null;
  last_checkout_session_id: string | null;
  /** The Checkout Session opened last and not yet known paid or expired, and its price: a new checkout continues or expires it. */
  open_checkout_session_id: string | null;
  open_checkout_price: string | null;
}

/** Why a site's record is gone: its creator deleted it, it expired, or an operator took it down. */
export const REMOVED_SITE_REASONS = ['removed', 'expired', 'taken-down'] as const;
export type TRemovedSiteReason = (typeof REMOVED_SITE_REASONS)[number];

/** A site whose record was removed, by its address: its link says what became of it. Nothing of the site is kept. */
export interface RemovedSitesTable {
  slug: string;
  reason: TRemovedSiteReason;
  removed_at: number;
}

/** One trial allowed per slot of a client address (its SHA-256), taken again once started_at is 30 days old. */
export interface TrialAddressSlotsTable {
  address_hash: string;
  slot: number;
  started_at: number;
}

export interface BillingEventsTable {
  id: string;
  type: string;
  created_at: number;
  processed_at: number;
}

export interface UsageTable {
  /** The workspace counted (a personal workspace's id is its account's). */
  workspace_id: string;
  period: string;
  storage_used: number;
  projects_count: number;
  collaborators_count: number;
  api_requests_count: number;
  updated_at: number;
  /** The part of storage_used that is derived from the originals (found in storage by a recount). */
  derived_bytes: Generated<number>;
}

export interface MessagesTable {
  id: string;
  kind: 'contact' | 'feedback' | 'sales';
  name: string;
  email: string;
  subject: string;
  company: string;
  message: string;
  rating: number | null;
  created_at: number;
  /** When it was emailed to the operator; null until then. */
  emailed_at: number | null;
  /** Attempts to email it so far, and when the last one started (a failed one is retried later). */
  email_attempts: Generated<number>;
  email_attempted_at: number | null;
}

/** A newsletter address: double opt-in (pending until its link is followed), unsubscribed by the link in every message. */
export interface NewsletterSubscribersTable {
  id: string;
  email: string;
  status: 'pending' | 'confirmed' | 'unsubscribed';
  token_hash: string | null;
  token_expires_at: number | null;
  confirm_sent_at: number | null;
  confirmed_at: number | null;
  unsubscribed_at: number | null;
  created_at: number;
  updated_at: number;
}

export type TUploadProtocol = 'regular' | 'chunked' | 'direct' | 'direct-chunked';

export interface UploadSessionsTable {
  id: string;
  project_id: string;
  protocol: TUploadProtocol;
  status: 'open' | 'completing' | 'completed' | 'aborted';
  idempotency_key: string | null;
  anonymous_session_id: string | null;
  /** JSON of the form fields given at init. */
  form: string;
  created_at: number;
  expires_at: number;
  completed_at: number | null;
  /** The site's slug, reserved at init so the link can be shown before the bytes arrive. */
  project_slug: string | null;
  /** SHA-256 of the init request, so an Idempotency-Key replayed with another request is refused. */
  request_fingerprint: string | null;
  /** While status is 'completing': until when the completer holds the session (a crashed one's lease runs out). */
  lease_until: number | null;
}

export interface UploadFilesTable {
  id: string;
  session_id: string;
  name: string;
  type: string;
  size: number;
  chunk_size: number;
  total_chunks: number;
  expected_sha256: string | null;
  /** S3 multipart upload id when the bytes go straight to the bucket. */
  multipart_upload_id: string | null;
  position: number;
  /** SHA-256 of the assembled file, computed by the server while verifying it. */
  sha256: string | null;
  /** When the file was assembled into its final object and verified. */
  assembled_at: number | null;
  /** The folder the file was dropped in, as declared at init (cleaned); null for none. */
  group_name: Generated<string | null>;
}

export interface UploadChunksTable {
  file_id: string;
  chunk_index: number;
  size: number;
  /** Hex CRC-32 (8 digits); rows recorded before it was hold the chunk's hex SHA-256 (64 digits). */
  checksum: string;
  storage_key: string;
  etag: string | null;
  created_at: number;
}

export type TBuildState = 'queued' | 'running' | 'succeeded' | 'failed';

export interface BuildsTable {
  id: string;
  project_id: string;
  version: number;
  status: TBuildState;
  progress: number;
  stage: string;
  error: string | null;
  attempts: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** A one-time rebuild of every site a migration asked for; the first process to start takes it. */
export interface PendingSiteRebuildsTable {
  reason: string;
  requested_at: number;
}

/** What each demo site was last built from (its sample project and the template's build, hashed). */
export interface DemoSitesTable {
  slug: string;
  fingerprint: string;
  built_at: number;
}

/** What owns sites, the subscription and usage; an account's personal workspace has the account's id. */
export interface WorkspacesTable {
  id: string;
  name: string;
  /** 1 for an account's own workspace (made with it; never left or deleted on its own). */
  personal: number;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

/** An account's membership of a workspace, in one role (WORKSPACE_ROLES). */
export interface WorkspaceMembersTable {
  workspace_id: string;
  creator_id: string;
  role: TWorkspaceRole;
  invited_by: string | null;
  created_at: number;
}

/** An emailed invitation: only the SHA-256 of its token is stored; single use, bound to the address. */
export interface WorkspaceInvitationsTable {
  id: string;
  workspace_id: string;
  /** The invited address, lower-cased. */
  email: string;
  role: TWorkspaceRole;
  token_hash: string;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

/** The append-only audit log: one typed event per change (AUDIT_EVENT_TYPES), never a secret value. */
export interface AuditEventsTable {
  id: string;
  workspace_id: string;
  type: TAuditEventType;
  actor_creator_id: string | null;
  /** The actor's name when it happened; null for the system. */
  actor_name: string | null;
  target: string | null;
  details: string;
  address: string | null;
  created_at: number;
}

export interface Database {
  creators: CreatorsTable;
  auth_sessions: AuthSessionsTable;
  account_tokens: AccountTokensTable;
  anonymous_sessions: AnonymousSessionsTable;
  visitors: VisitorsTable;
  projects: ProjectsTable;
  files: FilesTable;
  favorites: FavoritesTable;
  comments: CommentsTable;
  approvals: ApprovalsTable;
  analytics_events: AnalyticsEventsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_totals: AnalyticsTotalsTable;
  analytics_visitor_days: AnalyticsVisitorDaysTable;
  analytics_visitors: AnalyticsVisitorsTable;
  email_collections: EmailCollectionsTable;
  email_addresses: EmailAddressesTable;
  email_recipient_requests: EmailRecipientRequestsTable;
  notifications: NotificationsTable;
  subscriptions: SubscriptionsTable;
  billing_events: BillingEventsTable;
  trial_address_slots: TrialAddressSlotsTable;
  usage: UsageTable;
  messages: MessagesTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  upload_sessions: UploadSessionsTable;
  upload_files: UploadFilesTable;
  upload_chunks: UploadChunksTable;
  builds: BuildsTable;
  server_secrets: ServerSecretsTable;
  product_events: ProductEventsTable;
  pending_site_rebuilds: PendingSiteRebuildsTable;
  demo_sites: DemoSitesTable;
  removed_sites: RemovedSitesTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invitations: WorkspaceInvitationsTable;
  audit_events: AuditEventsTable;
}

export type TSiteRow = Selectable<ProjectsTable>;
export type TNewSite = Insertable<ProjectsTable>;
export type TSiteUpdate = Updateable<ProjectsTable>;
export type TFileRow = Selectable<FilesTable>;
export type TNewFile = Insertable<FilesTable>;
export type TBuildRow = Selectable<BuildsTable>;
export type { Generated };
