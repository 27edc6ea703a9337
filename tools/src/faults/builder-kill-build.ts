/**
 * builder-kill-build: the builder running a site's build is killed with SIGKILL part-way through its
 * files. BullMQ finds the job stalled (its lock lapses) and the other builder builds the site; while
 * that happens a visitor polling the page gets the holding page (202) or the whole site, never a page
 * missing some of its files.
 */
import sharp from 'sharp';
import { httpClient, publish, seconds, type TPublishFile } from './http-client.ts';
import { delay, expectations, kill9, type TFaultRow } from './row.ts';

/** Enough large photographs that deriving them takes several seconds. */
const IMAGES = 36;
const WIDTH = 4000;
const HEIGHT = 3000;
/** The killed build's other builder must have taken it over by then (BullMQ's lock is 30 s, its stall check every 30 s). */
const TAKEOVER_DEADLINE_MS = 150_000;
/** Killed a third of the way through its files. */
const KILL_AFTER_DERIVED = Math.floor(IMAGES / 3);

async function photographs(): Promise<TPublishFile[]> {
  const files: TPublishFile[] = [];
  for (let i = 0; i < IMAGES; i++) {
    const hue = (i * 37) % 255;
    const bytes = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: { r: hue, g: 255 - hue, b: (i * 91) % 255 } } })
      .jpeg({ quality: 90 })
      .toBuffer();
    files.push({ name: `frame-${String(i + 1).padStart(2, '0')}.jpg`, type: 'image/jpeg', bytes });
  }
  return files;
}

interface TLogLine {
  msg?: string;
  projectId?: string;
  slug?: string;
  ms?: number;
}

function logLines(output: string): TLogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as TLogLine];
      } catch {
        return [];
      }
    });
}

export const builderKillBuild: TFaultRow = {
  name: 'builder-kill-build',
  expectation: 'kill -9 of a builder mid-build; the other builder makes the site live after the stall interval, never served half-built',
  simulates: `A site of ${IMAGES} photographs (${WIDTH}×${HEIGHT} JPEG) is published; the builder that logs "build started" for it is killed with SIGKILL once it has derived a third of them. The page is polled through the edge and both APIs until the other builder has built it; the killed builder is started again afterwards.`,
  async run(faults, log) {
    const { stack } = faults;
    const { check, outcome } = expectations();
    const files = await photographs();
    const published = await publish(httpClient(stack.url), 'Fault: builder killed mid-build', files);
    if (!check(published.status === 201 && published.slug !== undefined, `the publish answered ${published.status}`)) return outcome(JSON.stringify(published.body));
    const slug = published.slug as string;
    const [project] = await faults.query<{ id: string }>('select id from projects where slug = $1', [slug]);
    const fileIds = (await faults.query<{ id: string }>('select f.id from files f join projects p on p.id = f.project_id where p.slug = $1', [slug])).map((r) => r.id);
    check(fileIds.length === IMAGES, `the site has ${fileIds.length} files, not ${IMAGES}`);

    // The builder that took the build, once it has derived some (not all) of the files.
    const builders = stack.processes.filter((p) => p.role.startsWith('builder'));
    let victim: string | undefined;
    let derivedAtKill = 0;
    const watchUntil = Date.now() + 60_000;
    while (!victim && Date.now() < watchUntil) {
      for (const builder of builders) {
        const lines = logLines(builder.output());
        if (!lines.some((l) => l.msg === 'build started' && l.projectId === project?.id)) continue;
        const derived = lines.filter((l) => l.msg === 'file derived' && l.slug === slug).length;
        if (lines.some((l) => l.msg === 'site built' && l.slug === slug)) return outcome(`the build finished (${builder.role}) before it could be killed: make it slower`);
        if (derived >= KILL_AFTER_DERIVED) {
          victim = builder.role;
          derivedAtKill = derived;
        }
      }
      if (!victim) await delay(50);
    }
    if (!victim) return outcome('no builder started the build within 60 s');
    log(`  kill -9 ${victim} after ${derivedAtKill}/${IMAGES} files derived`);
    await kill9(faults, victim);
    const killedAt = Date.now();
    const survivor = builders.find((b) => b.role !== victim);

    // A visitor keeps loading the page, through the edge and each API in turn.
    const bases = [stack.url, ...stack.apiUrls];
    const seen = { building: 0, complete: 0, halfBuilt: 0, other: 0 };
    const strays: string[] = [];
    let liveMs: number | undefined;
    let thumbnailsChecked = false;
    for (let poll = 0; Date.now() - killedAt < TAKEOVER_DEADLINE_MS; poll++) {
      const base = bases[poll % bases.length] as string;
      const res = await fetch(`${base}/${slug}`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      const html = res ? await res.text() : '';
      if (res?.status === 202) seen.building++;
      else if (res?.status === 200) {
        const shown = new Set([...html.matchAll(/\/api\/files\/([\w-]{22})\?/g)].map((m) => m[1]));
        const missing = fileIds.filter((id) => !shown.has(id));
        if (missing.length > 0) {
          seen.halfBuilt++;
          strays.push(`${base}: a page missing ${missing.length} of ${IMAGES} files`);
        } else {
          seen.complete++;
          if (!thumbnailsChecked) {
            // Every picture the page shows is there too.
            thumbnailsChecked = true;
            for (const id of fileIds) {
              const thumb = await fetch(`${base}/api/files/${id}?mode=preview&size=300`);
              await thumb.arrayBuffer();
              if (thumb.status !== 200) {
                seen.halfBuilt++;
                strays.push(`${base}: the page's thumbnail of ${id} answered ${thumb.status}`);
              }
            }
          }
          liveMs ??= Date.now() - killedAt;
          // Seen complete through every way in: done.
          if (seen.complete >= bases.length) break;
        }
      } else {
        seen.other++;
        strays.push(`${base}: ${res ? res.status : 'no answer'}`);
      }
      await delay(150);
    }
    check(liveMs !== undefined, `the site was not live within ${seconds(TAKEOVER_DEADLINE_MS)} of the kill`);
    check(seen.halfBuilt === 0, `served half-built: ${strays.slice(0, 3).join('; ')}`);
    check(seen.other === 0, `other answers while building: ${strays.slice(0, 3).join('; ')}`);
    const built = survivor === undefined ? undefined : logLines(survivor.output()).find((l) => l.msg === 'site built' && l.slug === slug);
    const tookOver = built !== undefined;
    check(tookOver, `${survivor?.role ?? 'the other builder'} did not build the site`);

    await stack.restart(victim);
    return outcome(
      `${victim} killed at ${derivedAtKill}/${IMAGES} files derived; live via ${survivor?.role} ${liveMs === undefined ? 'never' : `${seconds(liveMs)} after the kill`} (its build took ${built?.ms === undefined ? '?' : seconds(built.ms)}); ${seen.building + seen.complete + seen.halfBuilt + seen.other} polls: ${seen.building} building (202), ${seen.complete} complete, ${seen.halfBuilt} half-built, ${seen.other} other; ${victim} restarted`,
      { liveMs: liveMs ?? -1, halfBuilt: seen.halfBuilt, other: seen.other, building: seen.building, tookOver },
    );
  },
};
