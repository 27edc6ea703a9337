import { describe, expect, it } from 'vitest';
import { FILE_GROUP_MAX_LENGTH, FILE_GROUP_MESSAGES, ZFileGroupSchema, groupFromRelativePath } from './file-group.ts';
import { ZFileMetadataEntrySchema, ZUploadFormSchema } from './schemas.ts';
import { ZChunkedInitRequestSchema, ZDirectChunkedInitRequestSchema } from './upload-protocol.ts';

const messageOf = (value: unknown) => {
  const result = ZFileGroupSchema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('a file group', () => {
  it('is cleaned like a file name: spaces collapsed and trimmed, dots trimmed at the ends, direction overrides removed, NFC', () => {
    expect(ZFileGroupSchema.parse('  Ceremony  ')).toBe('Ceremony');
    expect(ZFileGroupSchema.parse('Black   and  White')).toBe('Black and White');
    expect(ZFileGroupSchema.parse('..Portraits.')).toBe('Portraits');
    expect(ZFileGroupSchema.parse('Red\u202Egpj')).toBe('Redgpj');
    expect(ZFileGroupSchema.parse('Cafe\u0301')).toBe('Café');
  });

  it('is null when absent, null or blank', () => {
    expect(ZFileGroupSchema.parse(undefined)).toBeNull();
    expect(ZFileGroupSchema.parse(null)).toBeNull();
    expect(ZFileGroupSchema.parse('')).toBeNull();
    expect(ZFileGroupSchema.parse('   ')).toBeNull();
  });

  it('takes 1 to 80 characters after cleaning and refuses longer ones', () => {
    expect(ZFileGroupSchema.parse('A')).toBe('A');
    expect(ZFileGroupSchema.parse('x'.repeat(FILE_GROUP_MAX_LENGTH))).toHaveLength(80);
    expect(ZFileGroupSchema.parse(` ${'x'.repeat(FILE_GROUP_MAX_LENGTH)} `)).toHaveLength(80);
    expect(messageOf('x'.repeat(FILE_GROUP_MAX_LENGTH + 1))).toBe(FILE_GROUP_MESSAGES.tooLong);
    expect(messageOf('x'.repeat(5000))).toBe(FILE_GROUP_MESSAGES.tooLong);
  });

  it('refuses control characters, slashes and a name that cleans to nothing', () => {
    expect(messageOf('Black\nWhite')).toBe(FILE_GROUP_MESSAGES.controlCharacters);
    expect(messageOf('Black\u0000')).toBe(FILE_GROUP_MESSAGES.controlCharacters);
    expect(messageOf('Shoot/Portraits')).toBe(FILE_GROUP_MESSAGES.slashes);
    expect(messageOf('..\\..\\etc')).toBe(FILE_GROUP_MESSAGES.slashes);
    expect(messageOf('..')).toBe(FILE_GROUP_MESSAGES.empty);
    expect(messageOf('\u202E')).toBe(FILE_GROUP_MESSAGES.empty);
    expect(messageOf(42)).not.toBeNull();
  });
});

describe('the group of a picked file', () => {
  it('is the folder that directly holds it, null at the top of the drop', () => {
    expect(groupFromRelativePath('anna.jpg')).toBeNull();
    expect(groupFromRelativePath('')).toBeNull();
    expect(groupFromRelativePath('Portraits/anna.jpg')).toBe('Portraits');
    expect(groupFromRelativePath('/Portraits/anna.jpg')).toBe('Portraits');
    expect(groupFromRelativePath('Wedding/Ceremony/rings.jpg')).toBe('Ceremony');
  });

  it('is a name the server takes: cleaned, backslashes made spaces, cut to 80 characters', () => {
    expect(groupFromRelativePath(' Black \u202E/shirt.jpg')).toBe('Black');
    expect(groupFromRelativePath('Navy\\Blue/shirt.jpg')).toBe('Navy Blue');
    expect(groupFromRelativePath('.../shirt.jpg')).toBeNull();
    const long = groupFromRelativePath(`${'é'.repeat(79)}😀😀/a.jpg`);
    expect(long).toBe('é'.repeat(79));
    for (const path of [' Black \u202E/shirt.jpg', 'Navy\\Blue/shirt.jpg', `${'x'.repeat(200)}/a.jpg`]) {
      expect(ZFileGroupSchema.parse(groupFromRelativePath(path))).toBe(groupFromRelativePath(path));
    }
  });
});

describe('groups in the upload protocols', () => {
  it('the multipart call reads each filesMetadata entry’s group', () => {
    const form = ZUploadFormSchema.parse({
      title: 'Shoot',
      filesMetadata: JSON.stringify([
        { name: 'a.jpg', size: 1, group: ' Black ' },
        { name: 'b.jpg', size: 1, group: '' },
        { name: 'c.jpg', size: 1 },
      ]),
    });
    expect(form.filesMetadata?.map((f) => f.group ?? null)).toEqual(['Black', null, null]);
    const refused = ZUploadFormSchema.safeParse({ title: 'Shoot', filesMetadata: JSON.stringify([{ name: 'a.jpg', size: 1, group: 'a/b' }]) });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['filesMetadata', 0, 'group']);
    expect(ZFileMetadataEntrySchema.safeParse({ name: 'a.jpg', size: 1, group: 'x'.repeat(81) }).success).toBe(false);
  });

  it('the chunked and direct chunked inits read each file’s group', () => {
    const files = [
      { name: 'a.jpg', size: 1, group: 'White' },
      { name: 'b.jpg', size: 1, group: null },
    ];
    expect(ZChunkedInitRequestSchema.parse({ title: 'T', files }).files.map((f) => f.group)).toEqual(['White', null]);
    expect(ZDirectChunkedInitRequestSchema.parse({ metadata: { title: 'T' }, files }).files.map((f) => f.group)).toEqual(['White', null]);
    const refused = ZChunkedInitRequestSchema.safeParse({ title: 'T', files: [{ name: 'a.jpg', size: 1, group: 'tab\there' }] });
    expect(refused.error?.issues[0]?.message).toBe(FILE_GROUP_MESSAGES.controlCharacters);
  });
});
