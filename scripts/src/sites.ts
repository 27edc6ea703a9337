/**
 * npm run sites -- list [--limit N] [--owner <email or creator id>] | find <slug>
 * Looks sites up for an operator: `list` the newest first (every state), `find` one site in detail
 * (owner, state and takedown reason, expiry, whether it has a password, files, engagement counts,
 * its address). Opens the database alone.
 */
import { describeSiteState, findSiteDetail, listSites, type TSiteDetail, type TSiteListing, type TSiteOwner } from '@dropsite/control-api';
import { formatBytes } from '@dropsite/shared';
import { failUsage, readCommandLine, readNumberFlag, runWithDatabase } from './cli.ts';
import { formatTable, formatTime } from './text-table.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run sites -- list [--limit <N>] [--owner <email or creator id>] [--json]
       npm run sites -- find <slug> [--json]

Commands:
  list          The newest sites first, in every state: slug, title, owner, state, files,
                bytes of the originals, when it was published.
  find <slug>   One site in detail: owner, state (and the takedown reason), expiry, whether it
                has a password, its files, its views, downloads, favourites and comments, and
                its address. Exits 1 when no site has the slug.

Options:
  --limit <N>   Most sites to list (1 to 10000; default 50).
  --owner <id>  Only the sites of this account: its email or creator id.
  --json        Print JSON instead of the table.
  -h, --help    Show this help.
`;

const { values, positionals } = readCommandLine(USAGE, { limit: { type: 'string' }, owner: { type: 'string' }, json: { type: 'boolean', default: false } }, { positionals: true });
const [action, ...args] = positionals;
if (action !== 'list' && action !== 'find') failUsage(USAGE, action === undefined ? 'Say list or find <slug>.' : `Unknown command: ${action}`);
if (action === 'list' && args.length > 0) failUsage(USAGE, `Unexpected argument: ${args.join(' ')}`);
if (action === 'find' && (args.length !== 1 || values.limit !== undefined || values.owner !== undefined)) failUsage(USAGE, 'find takes one slug and no --limit or --owner.');
const limit = readNumberFlag(USAGE, 'limit', values.limit, { min: 1, max: 10_000, whole: true }) ?? 50;

await runWithDatabase(async ({ db }, config) => {
  const now = Date.now();
  if (action === 'list') {
    const sites = await listSites(db, { now, limit, owner: values.owner });
    if (values.json)
      process.stdout.write(
        `${JSON.stringify(
          sites.map((s) => ({ ...s, createdAt: new Date(s.createdAt).toISOString() })),
          null,
          2,
        )}\n`,
      );
    else if (sites.length === 0) process.stdout.write(values.owner ? `No sites of ${values.owner}.\n` : 'No sites.\n');
    else process.stdout.write(describeList(sites));
    return 0;
  }
  const slug = args[0]!;
  const site = await findSiteDetail(db, slug, now);
  if (!site) {
    process.stderr.write(`No site with slug: ${slug}\n`);
    return 1;
  }
  const url = `${config.publicUrl}/${site.slug}`;
  process.stdout.write(values.json ? `${JSON.stringify(detailJson(site, url), null, 2)}\n` : describeSite(site, url));
  return 0;
});

function ownerText(owner: TSiteOwner): string {
  if (owner.kind === 'account') return owner.email ?? owner.creatorId;
  if (owner.kind === 'anonymous') return 'anonymous';
  if (owner.kind === 'demo') return 'demo site';
  return 'no owner';
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function describeList(sites: readonly TSiteListing[]): string {
  const rows = sites.map((s) => [s.slug, shorten(s.title, 40), ownerText(s.owner), describeSiteState(s.state), String(s.files), formatBytes(s.bytes), formatTime(s.createdAt)]);
  return formatTable([['slug', 'title', 'owner', 'state', 'files', 'bytes', 'created'], ...rows], [4, 5]);
}

function describeSite(site: TSiteDetail, url: string): string {
  const owner = site.owner.kind === 'account' ? `${ownerText(site.owner)} (creator ${site.owner.creatorId})` : ownerText(site.owner);
  const state =
    site.state === 'taken_down'
      ? `taken down ${site.takenDownAt === null ? '' : formatTime(site.takenDownAt)}; reason: ${site.takedownReason ?? '(none recorded)'}`
      : describeSiteState(site.state);
  const expiry = site.expiresAt === null ? 'never' : `${formatTime(site.expiresAt)}${site.state === 'deleted' ? ' (removal from then, after the grace period)' : ''}`;
  const details = formatTable([
    ['slug', site.slug],
    ['title', site.title],
    ['url', url],
    ['owner', owner],
    ['state', state],
    ...(site.deletedAt !== null && site.state === 'deleted' ? [['deleted', formatTime(site.deletedAt)]] : []),
    ['expires', expiry],
    ['password', site.hasPassword ? 'yes' : 'no'],
    ['template', `${site.template} (theme ${site.theme})`],
    ['created', formatTime(site.createdAt)],
    ['updated', formatTime(site.updatedAt)],
    ['views', String(site.views)],
    ['downloads', String(site.downloads)],
    ['favourites', String(site.favorites)],
    ['comments', String(site.comments)],
    ['files', `${site.files} (${formatBytes(site.bytes)})`],
  ]);
  const files = site.fileList.map((f) => [`  ${f.name}`, formatBytes(f.size), f.type || f.kind, f.version > 1 ? `version ${f.version}` : '']);
  return files.length > 0 ? `${details}${formatTable(files, [1])}` : details;
}

function detailJson(site: TSiteDetail, url: string) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    ...site,
    url,
    createdAt: iso(site.createdAt),
    updatedAt: iso(site.updatedAt),
    expiresAt: iso(site.expiresAt),
    deletedAt: iso(site.deletedAt),
    takenDownAt: iso(site.takenDownAt),
  };
}
