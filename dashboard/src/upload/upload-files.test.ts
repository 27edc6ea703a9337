import { describe, expect, it, vi } from 'vitest';
import { NEW_SITE_SETTINGS } from '@dropsite/testkit/dashboard/fixtures';
import { addFiles, findDuplicates, totalBytes, type TChosenFile } from './chosen-files.ts';
import { isCameraFileName, suggestSiteTitle, titleFromFiles, typeSiteTitle } from './site-title.ts';
import { createTransferMeter, formatTimeLeft } from './upload-progress.ts';
import { DEFAULT_UPLOAD_SETTINGS, UPLOAD_FAILED_MESSAGE, buildUploadForm, isAbortError, parseUploadReply, uploadFiles } from './upload-files.ts';
import { UploadError, describePublishError } from './upload-errors.ts';

const file = (name: string, size = 10, type = '', lastModified = 1) => new File([new Uint8Array(size)], name, { type, lastModified });

describe('suggestSiteTitle', () => {
  const untouched = { title: '', isTitleTyped: false };

  it('fills the title from the first file name by the spec rule', () => {
    expect(suggestSiteTitle(untouched, [file('spring_wedding-final.jpg'), file('b.pdf')])).toBe('Spring Wedding Final');
    expect(suggestSiteTitle(untouched, [file('brand-guidelines_v2.pdf')])).toBe('Brand Guidelines V2');
  });

  it('follows the first file while the title is still the suggestion', () => {
    const state = { title: 'Spring Wedding Final', isTitleTyped: false };
    expect(suggestSiteTitle(state, [file('moodboard.png')])).toBe('Moodboard');
    expect(suggestSiteTitle(state, [])).toBe('');
  });

  it('never overwrites a title the creator typed', () => {
    const typed = typeSiteTitle('Anna & Tom, 12 May');
    expect(typed.isTitleTyped).toBe(true);
    expect(suggestSiteTitle(typed, [file('IMG_0001.jpg')])).toBe('Anna & Tom, 12 May');
    expect(suggestSiteTitle(typed, [])).toBe('Anna & Tom, 12 May');
  });

  it('suggests again once the creator cleared the field', () => {
    const cleared = typeSiteTitle('   ');
    expect(cleared.isTitleTyped).toBe(false);
    expect(suggestSiteTitle(cleared, [file('final_cut.mov')])).toBe('Final Cut');
  });
});

describe('titleFromFiles', () => {
  it("takes a folder upload's title from the folder, by the same rule as a file name", () => {
    expect(titleFromFiles([{ name: 'DSC_0142.jpg', folder: 'harper-cole_wedding' }])).toBe('Harper Cole Wedding');
    expect(titleFromFiles([{ name: 'a.jpg', folder: 'Spring.2026 shoot' }])).toBe('Spring.2026 Shoot');
  });

  it('leaves the title empty for names a camera or phone gave', () => {
    for (const name of ['DSC_0142.jpg', 'DSC0142.JPG', 'DSCF0142.RAF', 'DSCN0001.jpg', 'IMG_1234.HEIC', 'IMG_1234 (1).jpg', 'IMG_1234-2.jpg', '_MG_0042.CR2', '_DSC1234.NEF']) {
      expect(isCameraFileName(name), name).toBe(true);
      expect(titleFromFiles([{ name }]), name).toBe('');
    }
    for (const name of ['P1010001.JPG', 'PXL_20240501_101010123.jpg', 'GOPR0001.MP4', 'MVI_0001.MOV', 'DJI_0001.jpg', '20240501_101010.jpg', '0142.jpg']) {
      expect(isCameraFileName(name), name).toBe(true);
    }
    // And from a camera card's own folders.
    expect(titleFromFiles([{ name: 'DSC_0001.jpg', folder: 'DCIM' }])).toBe('');
    expect(titleFromFiles([{ name: 'DSC_0001.jpg', folder: '100MSDCF' }])).toBe('');
  });

  it('keeps the name of a file a person named, even when it has a number', () => {
    for (const [name, title] of [
      ['Portrait 12.jpg', 'Portrait 12'],
      ['Imogen-and-Sam.jpg', 'Imogen And Sam'],
      ['Design_brief_v3.pdf', 'Design Brief V3'],
      ['Pitch 2026.key', 'Pitch 2026'],
      ['Sample_menu.pdf', 'Sample Menu'],
    ]) {
      expect(isCameraFileName(name!), name).toBe(false);
      expect(titleFromFiles([{ name: name! }])).toBe(title);
    }
  });

  it('is empty without files', () => {
    expect(titleFromFiles([])).toBe('');
  });
});

describe('buildUploadForm', () => {
  it('sends the regular publish fields and every file under "files"', () => {
    const files = [file('a.jpg', 3, 'image/jpeg'), file('notes.txt', 5, 'text/plain')];
    const form = buildUploadForm({ files, title: '  Client Delivery  ' });

    expect(form.get('title')).toBe('Client Delivery');
    expect(form.get('description')).toBe('');
    expect(form.get('template')).toBe('universal');
    expect(form.get('authorName')).toBe('');
    expect(JSON.parse(String(form.get('settings')))).toEqual(NEW_SITE_SETTINGS);
    expect(form.has('password')).toBe(false);
    expect(form.has('expiryDate')).toBe(false);
    expect(JSON.parse(String(form.get('filesMetadata')))).toEqual([
      { name: 'a.jpg', type: 'image/jpeg', size: 3 },
      { name: 'notes.txt', type: 'text/plain', size: 5 },
    ]);
    const sent = form.getAll('files') as File[];
    expect(sent.map((f) => [f.name, f.size])).toEqual([
      ['a.jpg', 3],
      ['notes.txt', 5],
    ]);
  });

  it('gives each file in filesMetadata the group of the folder it was dropped in, when it has one', () => {
    const form = buildUploadForm({ files: [file('black.jpg'), file('brief.pdf'), file('white.jpg')], groups: ['Black', null, 'White'], title: 'Tees' });
    expect(JSON.parse(String(form.get('filesMetadata'))).map((m: { name: string; group?: string }) => [m.name, m.group])).toEqual([
      ['black.jpg', 'Black'],
      ['brief.pdf', undefined],
      ['white.jpg', 'White'],
    ]);
  });

  it('sends the chosen template, settings, password and expiry when the creator set them', () => {
    const settings = { ...DEFAULT_UPLOAD_SETTINGS, enableComments: true, enableNotifications: true, notificationEmail: 'me@studio.com' };
    const form = buildUploadForm({
      files: [file('a.jpg')],
      title: 'T',
      template: 'portfolio-resume',
      settings,
      password: 'open sesame',
      expiryDate: '2030-01-02T03:04:00.000Z',
    });
    expect(form.get('template')).toBe('portfolio-resume');
    expect(JSON.parse(String(form.get('settings')))).toEqual(settings);
    expect(form.get('password')).toBe('open sesame');
    expect(form.get('expiryDate')).toBe('2030-01-02T03:04:00.000Z');
    expect([...form.keys()].at(-1)).toBe('files');
  });

  it('leaves a blank password out (the site stays public)', () => {
    expect(buildUploadForm({ files: [file('a.jpg')], title: 'T', password: '   ' }).has('password')).toBe(false);
  });

  it('puts the text fields before the files', () => {
    const names = [...buildUploadForm({ files: [file('a.jpg')], title: 'T' }).keys()];
    expect(names).toEqual(['title', 'description', 'template', 'authorName', 'settings', 'filesMetadata', 'files']);
  });
});

describe('parseUploadReply', () => {
  it('answers the slug of a successful upload', () => {
    expect(parseUploadReply(200, JSON.stringify({ success: true, url: 'http://x/abc', slug: 'k3m9pq2xza' }))).toEqual({
      ok: true,
      url: 'http://x/abc',
      slug: 'k3m9pq2xza',
    });
  });

  it("shows the server's error message", () => {
    const body = JSON.stringify({ success: false, error: 'Site Title is required', code: 'validation_failed' });
    expect(parseUploadReply(400, body)).toEqual({ ok: false, error: 'Site Title is required', status: 400 });
  });

  it("falls back to the spec's 'Upload failed' for anything else", () => {
    expect(parseUploadReply(502, '<html>Bad gateway</html>')).toEqual({ ok: false, error: 'Upload failed', status: 502 });
    expect(parseUploadReply(200, '{"ok":true}')).toEqual({ ok: false, error: 'Upload failed', status: 200 });
    expect(parseUploadReply(500, JSON.stringify({ success: false, error: ' ' }))).toEqual({ ok: false, error: 'Upload failed', status: 500 });
  });

  it("uses 'Direct upload failed' as the direct call's fallback", () => {
    expect(parseUploadReply(502, 'gateway', 'Direct upload failed')).toEqual({ ok: false, error: 'Direct upload failed', status: 502 });
  });

  it('is the catalogue alert text the wizard shows on any publish failure', () => {
    expect(UPLOAD_FAILED_MESSAGE).toBe('Upload failed. Please try again.');
  });
});

describe('addFiles', () => {
  let n = 0;
  const id = () => `f${++n}`;
  const top = (...files: File[]) => files.map((f) => ({ file: f, group: null }));

  it('appends in order, skipping system files; a file added twice stays and is flagged as a copy of the first', () => {
    const first = addFiles([], top(file('a.jpg'), file('.DS_Store'), file('b.jpg')), id).files;
    const { files } = addFiles(first, top(file('a.jpg'), file('c.jpg'), file('Thumbs.db')), id);
    expect(files.map((c) => c.file.name)).toEqual(['a.jpg', 'b.jpg', 'a.jpg', 'c.jpg']);
    expect(totalBytes(files)).toBe(40);
    expect([...findDuplicates(files)]).toEqual([[files[2]!.id, files[0]!.id]]);
  });

  it('flags the same name and size even when the copy was saved at another time', () => {
    const { files } = addFiles([], top(file('DSC_0142.jpg', 10, 'image/jpeg', 1), file('DSC_0142.jpg', 10, 'image/jpeg', 99)), id);
    expect(findDuplicates(files).size).toBe(1);
  });

  it('does not flag two different files that share a name', () => {
    const { files } = addFiles([], top(file('cover.jpg', 10), file('cover.jpg', 20)), id);
    expect(files).toHaveLength(2);
    expect(findDuplicates(files).size).toBe(0);
  });

  it('does not flag the same name in two folders, each with its group; the same folder twice is a copy', () => {
    const tee = file('tee.jpg');
    const { files } = addFiles(
      [],
      [
        { file: tee, group: 'Black', folderPath: 'Shop/Black' },
        { file: tee, group: 'White', folderPath: 'Shop/White' },
        { file: tee, group: 'White', folderPath: 'Shop/White' },
      ],
      id,
    );
    expect(files.map((c) => c.group)).toEqual(['Black', 'White', 'White']);
    expect([...findDuplicates(files).keys()]).toEqual([files[2]!.id]);
  });

  it('does not flag files of the same name in different folders whose last folder has the same name', () => {
    const { files } = addFiles(
      [],
      [
        { file: file('a.jpg'), group: 'Raw', folderPath: 'Day 1/Raw' },
        { file: file('a.jpg'), group: 'Raw', folderPath: 'Day 2/Raw' },
      ],
      id,
    );
    expect(findDuplicates(files).size).toBe(0);
  });

  it('stops at the per-site limit and says how many were left out', () => {
    const current: TChosenFile[] = [{ id: 'x', file: file('x.jpg'), group: null }];
    const result = addFiles(current, top(file('a'), file('b'), file('c')), id, 2);
    expect(result.files.map((c) => c.file.name)).toEqual(['x.jpg', 'a']);
    expect(result.overLimit).toBe(2);
  });
});

describe('progress estimates', () => {
  it('reports percent and file bytes at once, speed and time left once warmed up', () => {
    let t = 0;
    const measure = createTransferMeter(1_000_000, () => t);
    t = 100;
    const first = measure(100_000, 1_000_100);
    expect(first.percent).toBe(9);
    expect(first.sentBytes).toBe(99_990);
    expect(first.bytesPerSecond).toBeNull();
    t = 500;
    measure(200_000, 1_000_100);
    t = 1000;
    const later = measure(400_000, 1_000_100);
    expect(later.bytesPerSecond).toBeCloseTo(400_000, -4);
    expect(later.secondsLeft).toBeGreaterThan(1);
    expect(later.sentBytes).toBeLessThanOrEqual(later.totalBytes);
  });

  it('rounds the time left the way people say it', () => {
    expect(formatTimeLeft(2)).toBe('A few seconds left');
    expect(formatTimeLeft(38)).toBe('About 40 s left');
    expect(formatTimeLeft(58)).toBe('About 1 min left');
    expect(formatTimeLeft(190)).toBe('About 3 min left');
    expect(formatTimeLeft(4800)).toBe('About 1 h 20 min left');
  });
});

/** A stand-in for XMLHttpRequest with just what uploadFiles uses. */
class FakeRequest extends EventTarget {
  upload = new EventTarget();
  status = 0;
  responseText = '';
  sent: FormData | null = null;
  method = '';
  url = '';
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.sent = body;
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(Object.assign(new Event('progress'), { lengthComputable: true, loaded, total }));
  }
  respond(status: number, body: string) {
    this.upload.dispatchEvent(new Event('load'));
    this.status = status;
    this.responseText = body;
    this.dispatchEvent(new Event('load'));
  }
}

describe('uploadFiles', () => {
  const request = { files: [file('a.jpg')], title: 'A' };

  it('posts the form, reports progress and resolves with the slug', async () => {
    const xhr = new FakeRequest();
    const onProgress = vi.fn();
    const onUploadComplete = vi.fn();
    const done = uploadFiles(request, { onProgress, onUploadComplete, createRequest: () => xhr as unknown as XMLHttpRequest });
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/upload');
    expect(xhr.sent?.get('title')).toBe('A');
    xhr.progress(50, 100);
    xhr.respond(200, JSON.stringify({ success: true, url: 'http://localhost:3000/abcdefghjk', slug: 'abcdefghjk' }));
    await expect(done).resolves.toEqual({ ok: true, url: 'http://localhost:3000/abcdefghjk', slug: 'abcdefghjk' });
    expect(onProgress).toHaveBeenCalledWith({ loaded: 50, total: 100 });
    expect(onUploadComplete).toHaveBeenCalledOnce();
  });

  it("resolves a network failure with the spec's fallback message", async () => {
    const xhr = new FakeRequest();
    const done = uploadFiles(request, { createRequest: () => xhr as unknown as XMLHttpRequest });
    xhr.dispatchEvent(new Event('error'));
    await expect(done).resolves.toEqual({ ok: false, error: 'Upload failed', status: 0 });
  });

  it("shows the server's 429 or 413 refusal, answered before the body was sent, rather than a network failure", async () => {
    const refusals = [
      [429, 'You have published a lot in a short time. Please wait a while and try again.'],
      [413, 'This upload is larger than the daily upload allowance'],
    ] as const;
    for (const [status, message] of refusals) {
      const xhr = new FakeRequest();
      const done = uploadFiles(request, { createRequest: () => xhr as unknown as XMLHttpRequest });
      xhr.progress(64 * 1024, 10 * 1024 * 1024);
      xhr.status = status;
      xhr.responseText = JSON.stringify({ success: false, error: message, code: status === 429 ? 'rate_limited' : 'payload_too_large' });
      xhr.dispatchEvent(new Event('load'));
      const outcome = await done;
      expect(outcome).toEqual({ ok: false, error: message, status });
      // What the wizard shows beneath 'Upload failed. Please try again.'
      expect(describePublishError(new UploadError(message, { status }))).toBe(message);
    }
  });

  it('rejects with an AbortError when cancelled', async () => {
    const xhr = new FakeRequest();
    const controller = new AbortController();
    const done = uploadFiles(request, { signal: controller.signal, createRequest: () => xhr as unknown as XMLHttpRequest });
    controller.abort();
    const error = await done.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
  });
});
