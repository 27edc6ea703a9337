/** Parses a Markdown preview off the page's main thread: a heavy file never freezes the visitor's tab. */
import { markdownTree } from './markdown.ts';

self.onmessage = (event: MessageEvent<unknown>) => {
  const text = typeof event.data === 'string' ? event.data : '';
  self.postMessage(markdownTree(text));
};
