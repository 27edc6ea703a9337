/** The dashboard's icons: the product's line icons, one per activity type, and the expander's chevron. */
import type { TActivityType } from '@dropsite/shared';
import { CheckIcon, HeartIcon, Icon, MessageIcon, type TIconProps } from '../../components/icons.tsx';
import { DownloadIcon, EyeIcon } from '../../wizard/wizard-icons.tsx';

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
