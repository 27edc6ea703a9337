/** Stroke icons for the viewer islands (24 px grid, currentColor). Decorative: always aria-hidden. */
import { FILE_ICON_PATHS } from '../../../lib/shared-client.ts';

const PATHS = {
  ...FILE_ICON_PATHS,
  // The archive tree's name for the catalogue's 'other' icon.
  file: FILE_ICON_PATHS.other,
  close: 'M6 6l12 12 M18 6 6 18',
  prev: 'M15 5l-7 7 7 7',
  next: 'M9 5l7 7-7 7',
  back: 'M19 12H5 M11 6l-6 6 6 6',
  download: 'M12 3v12 M7 10l5 5 5-5 M5 21h14',
  share: 'M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6z M6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z M18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6z M8.6 13.5l6.8 4 M15.4 6.5l-6.8 4',
  heart: 'M12 20s-7.5-4.6-9.3-9.1C1.5 7.8 3.6 4.5 7 4.5c2 0 3.4 1.1 5 3 1.6-1.9 3-3 5-3 3.4 0 5.5 3.3 4.3 6.4C19.5 15.4 12 20 12 20z',
  expand: 'M4 9V4h5 M20 9V4h-5 M4 15v5h5 M20 15v5h-5',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z M20 20l-4-4',
  grid: 'M4 4h7v7H4z M13 4h7v7h-7z M4 13h7v7H4z M13 13h7v7h-7z',
  masonry: 'M4 4h7v10H4z M13 4h7v6h-7z M4 16h7v4H4z M13 12h7v8h-7z',
  list: 'M8 6h12 M8 12h12 M8 18h12 M4 6h.01 M4 12h.01 M4 18h.01',
  zoomIn: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z M20 20l-4-4 M11 8v6 M8 11h6',
  zoomOut: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z M20 20l-4-4 M8 11h6',
  rotate: 'M20 11a8 8 0 1 0-2.3 5.7 M20 4v7h-7',
  play: 'M7 4.5v15l12-7.5z',
  pause: 'M7 4h3.5v16H7z M13.5 4H17v16h-3.5z',
  back10: 'M3 12a9 9 0 1 0 3-6.7 M3 4v5h5 M10.5 10v5 M13.5 10h2a1 1 0 0 1 1 1v3a1 1 0 0 1-1 1h-2a1 1 0 0 1-1-1v-3a1 1 0 0 1 1-1z',
  forward10: 'M21 12a9 9 0 1 1-3-6.7 M21 4v5h-5 M8.5 10v5 M11.5 10h2a1 1 0 0 1 1 1v3a1 1 0 0 1-1 1h-2a1 1 0 0 1-1-1v-3a1 1 0 0 1 1-1z',
  volume: 'M4 9h4l5-4v14l-5-4H4z M16.5 8.5a5 5 0 0 1 0 7 M19 6a8.5 8.5 0 0 1 0 12',
  mute: 'M4 9h4l5-4v14l-5-4H4z M16 9l5 6 M21 9l-5 6',
  fullscreen: 'M4 9V4h5 M20 9V4h-5 M4 15v5h5 M20 15v5h-5',
  restart: 'M4 12a8 8 0 1 0 2.3-5.7 M4 4v5h5',
  external: 'M14 4h6v6 M20 4l-9 9 M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5',
  folder: 'M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z',
  folderOpen: 'M3 7a2 2 0 0 1 2-2h4l2 2h7a2 2 0 0 1 2 2v1 M3 7v10a2 2 0 0 0 2 2h12.5a2 2 0 0 0 1.9-1.4L21.5 12a1 1 0 0 0-1-1.3H8a2 2 0 0 0-1.9 1.4L3 19',
  chevronRight: 'M9 6l6 6-6 6',
  chevronDown: 'M6 9l6 6 6-6',
  copy: 'M9 9h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1z M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1',
  print: 'M6 9V3h12v6 M6 18H4a1 1 0 0 1-1-1v-6a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v6a1 1 0 0 1-1 1h-2 M7 14h10v7H7z',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  alert: 'M12 3l9.5 17h-19z M12 10v4 M12 17.5h.01',
  info: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z M12 11v6 M12 7.5h.01',
  textSize: 'M4 19l5-14 5 14 M6 14h6 M15 19l3-8 3 8 M16 16.5h4',
} as const;

export type TIconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: TIconName; className?: string }) {
  return (
    <svg className={className ? `vi-icon ${className}` : 'vi-icon'} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
}
