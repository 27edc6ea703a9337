/**
 * The Markdown tab of the text preview: markdown-it parses in a worker (markdown.worker.ts), and
 * its tree of allow-listed elements is rendered here as React elements, never as an HTML string.
 * Loaded on demand. A file that takes too long to parse is shown as plain text instead.
 */
import { useEffect, useState } from 'react';
import type { TMdNode } from './markdown.ts';
import { renderMarkdown } from './markdown-render.ts';

/** Past this, the worker is stopped and the text is shown as it is. */
const PARSE_TIMEOUT_MS = 15_000;

type TState = { status: 'parsing' } | { status: 'ready'; tree: TMdNode[] } | { status: 'plain' };

export default function MarkdownPreview({ text }: { text: string }) {
  const [state, setState] = useState<TState>({ status: 'parsing' });

  useEffect(() => {
    setState({ status: 'parsing' });
    let worker: Worker;
    try {
      worker = new Worker(new URL('./markdown.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      setState({ status: 'plain' });
      return;
    }
    const timer = setTimeout(() => {
      worker.terminate();
      setState({ status: 'plain' });
    }, PARSE_TIMEOUT_MS);
    worker.onmessage = (event: MessageEvent<TMdNode[]>) => {
      clearTimeout(timer);
      worker.terminate();
      setState(Array.isArray(event.data) ? { status: 'ready', tree: event.data } : { status: 'plain' });
    };
    worker.onerror = () => {
      clearTimeout(timer);
      worker.terminate();
      setState({ status: 'plain' });
    };
    worker.postMessage(text);
    return () => {
      clearTimeout(timer);
      worker.terminate();
    };
  }, [text]);

  if (state.status === 'parsing') {
    return (
      <div className="tv-status">
        <div className="vi-spinner ui-spinner" aria-hidden="true" />
        <p>Loading preview…</p>
      </div>
    );
  }
  if (state.status === 'plain') {
    return (
      <>
        <p className="tv-truncated">This file is shown as plain text: its formatting could not be read in time.</p>
        <div className="tv-prose tv-prose--plain">{text}</div>
      </>
    );
  }
  return <div className="tv-prose">{renderMarkdown(state.tree)}</div>;
}
