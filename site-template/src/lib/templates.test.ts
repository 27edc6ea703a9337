import { describe, expect, it } from 'vitest';
import { fileGroups, resumeFile, sortByName } from './templates.ts';
import { makeFile, makePdfFile } from '@dropsite/testkit/site-template';

describe('template helpers', () => {
  it('categories are the groups in first-seen order, only when they split the files', () => {
    expect(fileGroups([{ group: 'Red' }, { group: 'Blue' }, { group: 'Red' }])).toEqual(['Red', 'Blue']);
    expect(fileGroups([{ group: ' Red ' }, { group: null }])).toEqual(['Red']);
    expect(fileGroups([{ group: 'Red' }, { group: 'Red' }])).toEqual([]);
    expect(fileGroups([{ group: null }, { group: '' }, { group: '  ' }])).toEqual([]);
  });

  it('phases follow natural name order', () => {
    expect(sortByName([{ name: 'phase-10.pdf' }, { name: 'Phase-2.jpg' }, { name: 'phase-1.txt' }]).map((f) => f.name)).toEqual(['phase-1.txt', 'Phase-2.jpg', 'phase-10.pdf']);
  });

  it('the resume is the first PDF, else the first document', () => {
    const doc = makeFile('cv.docx');
    const pdf = makePdfFile('cv.pdf', 1);
    expect(resumeFile([makeFile('a.jpg'), doc, pdf])).toBe(pdf);
    expect(resumeFile([makeFile('a.jpg'), doc])).toBe(doc);
    expect(resumeFile([makeFile('a.jpg')])).toBeUndefined();
  });
});
