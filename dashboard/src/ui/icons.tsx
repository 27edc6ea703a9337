/** The dashboard's one icon set: line icons drawn on a 24 px grid; decorative unless a label is given by the caller. */
import type { ReactNode, SVGProps } from 'react';
import { FILE_ICON_PATHS, detectFileKind, fileIconOf } from '@dropsite/shared';
import type { TActivityType } from '@dropsite/shared';

export type TIconProps = SVGProps<SVGSVGElement> & { size?: number };

/** The frame every line icon of the dashboard is drawn in. */
export function Icon({ size = 20, children, ...rest }: TIconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

export const UploadIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 15V4" />
    <path d="m7.5 8.5 4.5-4.5 4.5 4.5" />
    <path d="M4 14.5v3A2.5 2.5 0 0 0 6.5 20h11a2.5 2.5 0 0 0 2.5-2.5v-3" />
  </Icon>
);

export const PlusIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);

export const CloseIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Icon>
);

export const MenuIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Icon>
);

export const ArrowRightIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Icon>
);

export const CheckIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Icon>
);

export const AlertIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7.5v5.5M12 16.5v.01" />
  </Icon>
);

export const ImageIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2.5" />
    <circle cx="9" cy="9.5" r="1.5" />
    <path d="m20.5 15.5-4.5-4.5-9 8.5" />
  </Icon>
);

export const DocumentIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M14 3.5H7.5a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2h9a2 2 0 0 0 2-2V8Z" />
    <path d="M14 3.5V8h4.5M9 12.5h6M9 16h4" />
  </Icon>
);

/** A file's type icon, drawn from the file-type catalogue's paths (the visitor site draws the same). */
export const FileTypeIcon = ({ name, type, ...p }: TIconProps & { name: string; type: string }) => (
  <Icon {...p}>
    <path d={FILE_ICON_PATHS[fileIconOf(name, detectFileKind(name, type))]} />
  </Icon>
);

export const LinkIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1" />
    <path d="M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1" />
  </Icon>
);

export const LockIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="5" y="10.5" width="14" height="10" rx="2.5" />
    <path d="M8.5 10.5V7.5a3.5 3.5 0 0 1 7 0v3" />
  </Icon>
);

export const HeartIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 19.5s-7.5-4.3-7.5-9.6A4.1 4.1 0 0 1 12 7.6a4.1 4.1 0 0 1 7.5 2.3c0 5.3-7.5 9.6-7.5 9.6Z" />
  </Icon>
);

export const MessageIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M5.5 18.5 4 20.5V6.5a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v9.5a2 2 0 0 1-2 2H5.5Z" />
    <path d="m9 11 2 2 4-4" />
  </Icon>
);

export const ChartIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M4 20h16M7 16.5V11M12 16.5V6.5M17 16.5v-4" />
  </Icon>
);

export const PanelsIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4" width="17" height="16" rx="2.5" />
    <path d="M3.5 9h17M10 9v11" />
  </Icon>
);

export const RefreshIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M20 11a8 8 0 0 0-14.9-3.5M4 4v4h4" />
    <path d="M4 13a8 8 0 0 0 14.9 3.5M20 20v-4h-4" />
  </Icon>
);

export const FolderIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M3.5 7.5A2 2 0 0 1 5.5 5.5h3.8l2 2.2h7.2a2 2 0 0 1 2 2v7.8a2 2 0 0 1-2 2h-13a2 2 0 0 1-2-2Z" />
  </Icon>
);

export const CopyIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="8.5" y="8.5" width="11" height="11" rx="2.5" />
    <path d="M15.5 8.5V6.5A2 2 0 0 0 13.5 4.5h-7a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h2" />
  </Icon>
);

export const ShareIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 15V4M7.5 8.5 12 4l4.5 4.5" />
    <path d="M5 12.5v5A2.5 2.5 0 0 0 7.5 20h9a2.5 2.5 0 0 0 2.5-2.5v-5" />
  </Icon>
);

export const DownloadIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 4v11M7.5 10.5 12 15l4.5-4.5" />
    <path d="M5 19.5h14" />
  </Icon>
);

export const ExternalIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M14 4.5h5.5V10M19.5 4.5 11 13" />
    <path d="M17.5 14v3.5a2 2 0 0 1-2 2h-9a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2H10" />
  </Icon>
);

export const ArrowLeftIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M19 12H5M11 6l-6 6 6 6" />
  </Icon>
);

export const EyeIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12Z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
);

export const BellIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 2h-15Z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </Icon>
);

export const CheckCircleIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="m8 12.5 2.8 2.8L16.5 9.5" />
  </Icon>
);

export const SparkIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 3.5 13.8 9l5.7 1.5-5.7 1.8L12 18l-1.8-5.7L4.5 10.5 10.2 9Z" />
  </Icon>
);

export const CalendarIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="4" y="5.5" width="16" height="14" rx="2.5" />
    <path d="M8 3.5v4M16 3.5v4M4 10.5h16" />
  </Icon>
);

export const GridIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="4" y="4" width="7" height="7" rx="1.5" />
    <rect x="13" y="4" width="7" height="7" rx="1.5" />
    <rect x="4" y="13" width="7" height="7" rx="1.5" />
    <rect x="13" y="13" width="7" height="7" rx="1.5" />
  </Icon>
);

export const UserIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="8.5" r="3.5" />
    <path d="M5 19.5a7 7 0 0 1 14 0" />
  </Icon>
);

export const PresentationIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4.5" width="17" height="11" rx="2" />
    <path d="M12 15.5v4M8.5 19.5h7M8 11.5l2.5-2.5 2 2 3.5-3.5" />
  </Icon>
);

export const ChevronDownIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

export const ClockIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
);

/** Waiting for a decision: a dashed circle. */
export const PendingIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" strokeDasharray="3 3" />
  </Icon>
);

export const ReplyIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M9 14 4 9l5-5" />
    <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
  </Icon>
);

export function ActivityIcon({ type }: { type: TActivityType }) {
  switch (type) {
    case 'view':
      return <EyeIcon size={16} />;
    case 'download':
      return <DownloadIcon size={16} />;
    case 'favorite':
      return <HeartIcon size={16} />;
    case 'comment':
      return <MessageIcon size={16} />;
    case 'approval':
      return <CheckIcon size={16} />;
  }
}

/** The notification list's and the teaser card's own drawings of a favourite, a comment and an expiry. */
export const FavoriteIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 20s-7.5-4.4-7.5-10A4.3 4.3 0 0 1 12 7.5 4.3 4.3 0 0 1 19.5 10c0 5.6-7.5 10-7.5 10Z" />
  </Icon>
);

export const CommentIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M6 18.5 4 20.5v-14a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2Z" />
    <path d="M8.5 9.5h7M8.5 13h4.5" />
  </Icon>
);

export const ExpiryClockIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8" />
    <path d="M12 8v4.5l3 1.5" />
  </Icon>
);

/** The header's bell, drawn with a wider clapper than BellIcon. */
export const NotificationBellIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 2h-15Z" />
    <path d="M10 20.5a2.2 2.2 0 0 0 4 0" />
  </Icon>
);

/** A star of the feedback form's rating: filled and outlined by the form's stylesheet, not by the icon frame. */
export function RatingStarIcon() {
  return (
    <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="m12 3.2 2.7 5.5 6 .9-4.35 4.24 1.03 6-5.38-2.83-5.38 2.83 1.03-6L3.3 9.6l6-.9z" strokeWidth="1.6" strokeLinejoin="round" />
    </svg>
  );
}
