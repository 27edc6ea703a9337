/** Line icons the wizard needs beyond the shared set; same 24 px grid and stroke. */
import { Icon, type TIconProps } from '../components/icons.tsx';

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
