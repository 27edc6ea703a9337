/**
 * Markdown of the text preview, parsed with markdown-it: CommonMark, linear on hostile input
 * (no regex backtracking over the whole text), nesting capped at 100 levels. Raw HTML is off
 * (shown as text), images are off (no requests to other hosts from a visitor's page), and
 * links go only to http(s) and mailto. The result is a small tree of allow-listed elements
 * that React renders: no HTML string is ever put into the page.
 * Loaded only when a Markdown preview opens, so markdown-it is not in the page's first bundle.
 */
import MarkdownIt, { type Token } from 'markdown-it';
import { TEXT_VIEWER } from '../../../lib/shared-client.ts';

const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks: false });
md.disable(['image']);
md.validateLink = (url: string) => /^(https?:\/\/|mailto:)/i.test(url.trim());

/**
 * Link text longer than this is shown as text, not as a link. markdown-it looks for the end of a link's
 * text from every '[': 2 MiB of '[' took it 6 s of the worker's CPU. A '[' with no ']' within this
 * many characters is passed over at once (as text, as markdown-it does with a '[' no rule takes),
 * the next ']' being found once for the whole run. A rule of its own before markdown-it's link
 * rule (the plugin API), so the link rule itself is left as markdown-it ships it.
 */
const MAX_LINK_TEXT = 1_000;
let closing = { src: '', from: 0, at: -1 };
/** The first ']' at or after `pos` (-1: none), from the last search when it still answers. */
function nextClosingBracket(src: string, pos: number): number {
  if (closing.src !== src || pos < closing.from || (closing.at !== -1 && closing.at < pos)) closing = { src, from: pos, at: src.indexOf(']', pos) };
  return closing.at;
}
md.inline.ruler.before('link', 'link_text_cap', (state, silent) => {
  if (state.src.charCodeAt(state.pos) !== 0x5b) return false;
  const close = nextClosingBracket(state.src, state.pos + 1);
  if (close !== -1 && close - state.pos <= MAX_LINK_TEXT) return false;
  if (!silent) state.pending += '[';
  state.pos += 1;
  return true;
});

/** The elements a preview may hold. Headings move one level down: the page has its own h1. */
export type TMdTag =
  | 'h2'
  | 'h3'
  | 'h4'
  | 'h5'
  | 'h6'
  | 'p'
  | 'ul'
  | 'ol'
  | 'li'
  | 'blockquote'
  | 'pre'
  | 'code'
  | 'hr'
  | 'br'
  | 'strong'
  | 'em'
  | 's'
  | 'a'
  | 'table'
  | 'thead'
  | 'tbody'
  | 'tr'
  | 'th'
  | 'td';

export type TMdNode = { type: 'text'; text: string } | { type: 'element'; tag: TMdTag; href?: string; start?: number; children: TMdNode[] };

const CONTAINER_TAGS: Record<string, TMdTag> = {
  h1: 'h2',
  h2: 'h3',
  h3: 'h4',
  h4: 'h5',
  h5: 'h6',
  h6: 'h6',
  p: 'p',
  ul: 'ul',
  ol: 'ol',
  li: 'li',
  blockquote: 'blockquote',
  strong: 'strong',
  em: 'em',
  s: 's',
  a: 'a',
  table: 'table',
  thead: 'thead',
  tbody: 'tbody',
  tr: 'tr',
  th: 'th',
  td: 'td',
};

type TElement = Extract<TMdNode, { type: 'element' }>;

const element = (tag: TMdTag, children: TMdNode[] = []): TElement => ({ type: 'element', tag, children });

/** The preview's tree of a Markdown text. */
export function markdownTree(text: string): TMdNode[] {
  return buildTree(md.parse(text, {}));
}

function buildTree(tokens: Token[]): TMdNode[] {
  const root: TMdNode[] = [];
  // Containers being filled; an element the preview does not show keeps its children in its parent.
  const stack: TMdNode[][] = [root];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      const into = stack[stack.length - 1]!;
      if (token.nesting === 1) {
        const tag = CONTAINER_TAGS[token.tag];
        if (!tag) {
          stack.push(into); // transparent
          continue;
        }
        const node = element(tag);
        if (tag === 'a') node.href = String(token.attrGet('href') ?? '');
        if (tag === 'ol') {
          const start = Number(token.attrGet('start') ?? 1);
          if (Number.isSafeInteger(start) && start !== 1) node.start = start;
        }
        into.push(node);
        stack.push(node.children);
        continue;
      }
      if (token.nesting === -1) {
        if (stack.length > 1) stack.pop();
        continue;
      }
      switch (token.type) {
        case 'inline':
          walk(token.children ?? []);
          break;
        case 'text':
        case 'text_special':
        case 'html_inline': // never made with html off; shown as text if it were
        case 'html_block':
          pushText(into, token.content);
          break;
        case 'softbreak':
          pushText(into, '\n');
          break;
        case 'hardbreak':
          into.push(element('br'));
          break;
        case 'code_inline':
          into.push(element('code', [{ type: 'text', text: token.content }]));
          break;
        case 'code_block':
        case 'fence':
          into.push(element('pre', [element('code', [{ type: 'text', text: token.content.replace(/\n$/, '') }])]));
          break;
        case 'hr':
          into.push(element('hr'));
          break;
        default:
          if (token.content) pushText(into, token.content);
      }
    }
  };
  walk(tokens);
  return root;
}

function pushText(into: TMdNode[], text: string): void {
  const last = into[into.length - 1];
  if (last?.type === 'text') last.text += text;
  else into.push({ type: 'text', text });
}

/** The plain text of a node (what a screen reader or a summary sees). */
export function nodeText(node: TMdNode): string {
  return node.type === 'text' ? node.text : node.children.map(nodeText).join('');
}

export type TMarkdownBlock =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; ordered: boolean; items: string[] }
  | { type: 'code'; text: string }
  | { type: 'quote'; text: string }
  | { type: 'rule' };

/** The top-level blocks of a Markdown text, as plain text (an outline of what the preview shows). */
export function parseMarkdown(text: string): TMarkdownBlock[] {
  return markdownTree(text).flatMap((node): TMarkdownBlock[] => {
    if (node.type === 'text') return node.text.trim() ? [{ type: 'paragraph', text: node.text }] : [];
    switch (node.tag) {
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return [{ type: 'heading', level: (Number(node.tag[1]) - 1) as 1, text: nodeText(node) }];
      case 'ul':
      case 'ol':
        return [{ type: 'list', ordered: node.tag === 'ol', items: node.children.map(nodeText) }];
      case 'pre':
        return [{ type: 'code', text: nodeText(node) }];
      case 'blockquote':
        return [{ type: 'quote', text: nodeText(node) }];
      case 'hr':
        return [{ type: 'rule' }];
      default:
        return [{ type: 'paragraph', text: nodeText(node) }];
    }
  });
}

export type TInline = { type: 'text' | 'code' | 'strong' | 'em'; text: string } | { type: 'link'; text: string; href: string };

/** The inline marks of one line of Markdown, flattened: `code`, **strong**, *em*, links (http, https, mailto only). */
export function parseInline(text: string): TInline[] {
  const out: TInline[] = [];
  const add = (part: TInline) => {
    const last = out[out.length - 1];
    if (part.type === 'text' && last?.type === 'text') last.text += part.text;
    else if (part.text !== '') out.push(part);
  };
  const visit = (node: TMdNode) => {
    if (node.type === 'text') add({ type: 'text', text: node.text });
    else if (node.tag === 'code') add({ type: 'code', text: nodeText(node) });
    else if (node.tag === 'strong') add({ type: 'strong', text: nodeText(node) });
    else if (node.tag === 'em') add({ type: 'em', text: nodeText(node) });
    else if (node.tag === 'a') add({ type: 'link', text: nodeText(node), href: node.href ?? '' });
    else node.children.forEach(visit);
  };
  buildTree(md.parseInline(text, {})).forEach(visit);
  return out;
}

/**
 * A Markdown file's first lines for its card, parsed when the site is built (the page ships the
 * tree, not markdown-it); null for any other file or when there are no lines to show.
 */
export function cardMarkdown(name: string, firstLines: string[] | undefined): TMdNode[] | null {
  if (!/\.(md|markdown)$/i.test(name) || !firstLines?.length) return null;
  const tree = markdownTree(firstLines.slice(0, TEXT_VIEWER.cardLines).join('\n'));
  return tree.length ? tree : null;
}
