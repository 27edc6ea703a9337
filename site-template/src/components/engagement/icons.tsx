/** Line icons for the engagement controls, 24 px grid, decorative (the buttons carry the names). */
import type { ReactNode } from 'react';

function Svg({ children, filled = false }: { children: ReactNode; filled?: boolean }) {
  return (
    <svg
      className="engagement-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="1.9"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const HeartIcon = ({ filled = false }: { filled?: boolean }) => (
  <Svg filled={filled}>
    <path d="M12 20s-7.5-4.4-7.5-10A4.3 4.3 0 0 1 12 7.5 4.3 4.3 0 0 1 19.5 10c0 5.6-7.5 10-7.5 10Z" />
  </Svg>
);

export const CheckIcon = () => (
  <Svg>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Svg>
);

export const ChangesIcon = () => (
  <Svg>
    <path d="M4.5 19.5h4l10-10a2.8 2.8 0 0 0-4-4l-10 10Z" />
    <path d="m13.5 6.5 4 4" />
  </Svg>
);

export const CommentIcon = () => (
  <Svg>
    <path d="M6 18.5 4 20.5v-14a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2Z" />
    <path d="M8.5 9.5h7M8.5 13h4.5" />
  </Svg>
);

export const ChevronIcon = () => (
  <Svg>
    <path d="m7 10 5 5 5-5" />
  </Svg>
);

export const CloseIcon = () => (
  <Svg>
    <path d="M6.5 6.5l11 11M17.5 6.5l-11 11" />
  </Svg>
);

export const ReplyIcon = () => (
  <Svg>
    <path d="M10 7 5 12l5 5" />
    <path d="M5.5 12H14a5 5 0 0 1 5 5v1" />
  </Svg>
);

export const SendIcon = () => (
  <Svg>
    <path d="M5 12h13M13 6.5l5.5 5.5-5.5 5.5" />
  </Svg>
);
