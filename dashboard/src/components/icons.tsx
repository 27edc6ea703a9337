/** Line icons drawn on a 24 px grid; decorative unless a label is given by the caller. */
import type { ReactNode, SVGProps } from 'react';
import { FILE_ICON_PATHS, detectFileKind, fileIconOf } from '@dropsite/shared';

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
