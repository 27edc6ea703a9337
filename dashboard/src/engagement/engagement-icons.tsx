/** Line icons of the engagement loop, 24 px grid, decorative (buttons carry their names). */
import { Icon } from '../components/icons.tsx';

export const HeartIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M12 20s-7.5-4.4-7.5-10A4.3 4.3 0 0 1 12 7.5 4.3 4.3 0 0 1 19.5 10c0 5.6-7.5 10-7.5 10Z" />
  </Icon>
);

export const MessageIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M6 18.5 4 20.5v-14a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2Z" />
    <path d="M8.5 9.5h7M8.5 13h4.5" />
  </Icon>
);

export const CheckIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Icon>
);

export const ClockIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <circle cx="12" cy="12" r="8" />
    <path d="M12 8v4.5l3 1.5" />
  </Icon>
);

export const LockIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <rect x="5" y="10.5" width="14" height="10" rx="2.5" />
    <path d="M8.5 10.5V7.5a3.5 3.5 0 0 1 7 0v3" />
  </Icon>
);
