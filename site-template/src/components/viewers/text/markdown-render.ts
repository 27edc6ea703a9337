/**
 * A parsed Markdown tree (markdown.ts) as React elements, never as an HTML string: links open in
 * a new tab without the page as opener. Shared by the card's first lines (parsed when the site is
 * built) and the full preview (parsed in a worker), so markdown-it never ships in the first bundle.
 */
import { createElement, type ReactNode } from 'react';
import type { TMdNode } from './markdown.ts';

function renderNode(node: TMdNode, key: number): ReactNode {
  if (node.type === 'text') return node.text;
  const children = node.children.length ? node.children.map(renderNode) : undefined;
  if (node.tag === 'a') {
    return createElement('a', { key, href: node.href, target: '_blank', rel: 'noopener noreferrer nofollow' }, children);
  }
  if (node.tag === 'ol' && node.start !== undefined) return createElement('ol', { key, start: node.start }, children);
  return createElement(node.tag, { key }, children);
}

export function renderMarkdown(tree: TMdNode[]): ReactNode[] {
  return tree.map(renderNode);
}
